/**
 * The narrow slice of Electron the shell uses, as local interfaces.
 *
 * Why: the `electron` package is an optionalDependency and is absent wherever its binary cannot
 * download (CI, this machine). Everything in main/electron except the entry file (main.ts) is
 * written against these interfaces, so it typechecks, builds and is unit-tested under plain Node
 * with fakes. main.ts adapts the real module to `ShellPlatform`; it resolves `electron` through the
 * `paths` entry of tsconfig.json: the real package's types when installed, else the minimal
 * declaration in main/electron/types/electron-fallback.d.ts. So `npm run typecheck` and
 * `npm run build` pass with and without Electron, and with Electron installed main.ts is checked
 * against the real API.
 */

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PreventableEvent {
  preventDefault(): void;
}

export type WindowOpenDecision = { action: 'deny' } | { action: 'allow' };

export interface WebContentsLike {
  readonly id: number;
  getURL(): string;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => WindowOpenDecision): void;
  executeJavaScript(code: string): Promise<unknown>;
}

export interface WebPreferencesOptions {
  preload: string;
  contextIsolation: true;
  sandbox: true;
  nodeIntegration: false;
  nodeIntegrationInWorker: false;
  nodeIntegrationInSubFrames: false;
  webSecurity: true;
  allowRunningInsecureContent: false;
  webviewTag: false;
  navigateOnDragDrop: false;
  safeDialogs: true;
  spellcheck: boolean;
}

export interface WindowOptions {
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  autoHideMenuBar: boolean;
  webPreferences: WebPreferencesOptions;
}

export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  maximize(): void;
  isMinimized(): boolean;
  isMaximized(): boolean;
  isFocused(): boolean;
  isDestroyed(): boolean;
  getNormalBounds(): Rect;
  once(event: 'ready-to-show', listener: () => void): void;
  on(event: 'close' | 'closed', listener: () => void): void;
}

export interface SessionLike {
  onHeadersReceived(
    urls: string[],
    listener: (details: { url: string; responseHeaders?: Record<string, string | string[]> }) => Record<string, string | string[]>,
  ): void;
  setPermissionRequestHandler(handler: (permission: string, requestingUrl: string) => boolean): void;
  setPermissionCheckHandler(handler: (permission: string, requestingOrigin: string) => boolean): void;
}

export interface TrayLike {
  setToolTip(text: string): void;
  /** macOS shows a short text beside the icon; elsewhere a no-op. */
  setTitle(text: string): void;
  setMenu(items: readonly TrayMenuItem[]): void;
  onClick(listener: () => void): void;
}

export type TrayMenuItem = { label: string; enabled?: boolean; click?: () => void } | { type: 'separator' };

export interface NoticeLike {
  title: string;
  body: string;
}

export interface IpcLike {
  /** Synchronous request (the preload's one-time bootstrap). Return value goes back to the renderer. */
  onSync(channel: string, handler: (senderUrl: string) => unknown): void;
  handle(channel: string, handler: (senderUrl: string, ...args: unknown[]) => unknown): void;
}

export type AppEvent = 'second-instance' | 'before-quit' | 'window-all-closed' | 'activate';

export interface AppLike {
  requestSingleInstanceLock(): boolean;
  on(event: 'before-quit', listener: (event: PreventableEvent) => void): void;
  on(event: 'second-instance' | 'window-all-closed' | 'activate', listener: () => void): void;
  quit(): void;
  exit(code: number): void;
  getVersion(): string;
  readonly isPackaged: boolean;
}

/** Everything the shell takes from Electron, injected so tests can replace each part. */
export interface ShellPlatform {
  app: AppLike;
  platform: NodeJS.Platform;
  createWindow(options: WindowOptions): WindowLike;
  session: SessionLike;
  ipc: IpcLike;
  onWebContentsCreated(listener: (contents: WebContentsLike) => void): void;
  openExternal(url: string): Promise<void>;
  showItemInFolder(fullPath: string): void;
  /** Opens a folder in the file manager; resolves to an error message, empty on success (shell.openPath). */
  openPath(fullPath: string): Promise<string>;
  /** The OS folder chooser, attached to the window; null when cancelled. */
  pickFolder(window: WindowLike | null, options: { title: string; defaultPath?: string }): Promise<string | null>;
  createTray(icon: Buffer): TrayLike;
  notificationsSupported(): boolean;
  notify(notice: NoticeLike, onClick: () => void): void;
  displays(): Rect[];
  primaryWorkArea(): Rect;
  showErrorBox(title: string, message: string): void;
}
