/**
 * What the preload hands the renderer as `window.headcount` (DESIGN.md: `{apiBaseUrl, token}` and a
 * few named OS actions, never a generic IPC bridge). Undefined in a plain browser tab.
 */
export interface HeadcountDesktopBridge {
  /** The core's loopback URL, e.g. http://127.0.0.1:3100 (also the page's own origin). */
  readonly apiBaseUrl: string;
  /** The board token, sent as `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly appVersion: string;
  readonly platform: string;
  /** Shows an absolute, existing path in the file manager (revealed, never opened). */
  revealPath(absolutePath: string): Promise<boolean>;
  /** Whether native notifications can be shown on this system. */
  notificationState(): Promise<NotificationState>;
  /** The OS folder chooser (a project's repository); the chosen absolute path, or null when cancelled. */
  pickFolder(options?: PickFolderOptions): Promise<string | null>;
  /** Opens an absolute, existing folder in the file manager (an issue's workspace); never a file. */
  openPath(absolutePath: string): Promise<boolean>;
}

export interface PickFolderOptions {
  title?: string;
  /** Where the chooser starts: an absolute existing folder, else the OS default. */
  defaultPath?: string;
}

export interface NotificationState {
  supported: boolean;
}

/** Answered synchronously once, when the preload runs. */
export interface BootstrapReply {
  apiBaseUrl: string;
  token: string;
  appVersion: string;
  platform: string;
}

/**
 * IPC channel names. The sandboxed preload cannot load this module at run time (it may require
 * only `electron`), so it repeats the strings, typed against these literals so they cannot drift.
 */
export const BRIDGE_CHANNELS = {
  bootstrap: 'headcount:bootstrap',
  revealPath: 'headcount:reveal-path',
  notificationState: 'headcount:notification-state',
  pickFolder: 'headcount:pick-folder',
  openPath: 'headcount:open-path',
} as const;

export const BRIDGE_GLOBAL = 'headcount';
