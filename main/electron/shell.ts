import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { createCore, type Core, type CoreOptions } from '../core/index.js';
import type { Logger } from '../core/kernel/logger.js';
import type { MasterKeyProvider } from '../core/secrets/master-key.js';
import type { ShellPlatform, WebContentsLike, WindowLike } from './electron-like.js';
import { activityDetails, countRunningAgents, inboxItems, ShellEventBus } from './core-feeds.js';
import { claimSingleInstance, QuitCoordinator } from './lifecycle.js';
import { Notifier } from './notifications.js';
import { appOrigin, decideNavigation, decidePermission, decideWindowOpen, isAppUrl, revealablePath, webPreferences, withSecurityHeaders } from './policy.js';
import { BRIDGE_CHANNELS, type BootstrapReply, type NotificationState } from '../../preload/contract.js';
import { trayIconPng } from './tray-icon.js';
import { trayLabel } from './tray-label.js';
import { MIN_SIZE, loadWindowState, restoreBounds, saveWindowState } from './window-state.js';
import type { TrayLike } from './electron-like.js';

/**
 * Port of the desktop core. A stable port keeps the renderer's origin (and so its local storage)
 * the same across launches and lets the `headcount` CLI reach the app at its default URL; when it
 * is taken, a free port is used instead.
 */
export const PREFERRED_PORT = 3100;

export interface ShellOptions {
  home: string;
  /** Absolute path of the compiled preload (dist/preload/index.cjs). */
  preloadPath: string;
  /** Electron-ABI better-sqlite3 binary; unset only in tests under plain Node. */
  nativeBinding?: string;
  /** Chooses the master-key store; called once the app is ready (safeStorage needs that). */
  keyProvider: () => Promise<MasterKeyProvider>;
  logger: Logger;
  port?: number;
  /** Core factory; tests may pass options through (board token, heartbeats off). */
  startCore?: (options: CoreOptions) => Promise<Core>;
}

/** An absolute path naming an existing directory, resolved; else null. */
function openableFolder(requested: unknown): string | null {
  const target = revealablePath(requested, existsSync);
  if (!target) return null;
  try {
    return statSync(target).isDirectory() ? target : null;
  } catch {
    return null;
  }
}

const isAddressInUse = (err: unknown): boolean => (err as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

/** The desktop shell: hosts the core in-process and owns the window, tray and notifications. */
export class DesktopShell {
  core: Core | null = null;
  window: WindowLike | null = null;
  tray: TrayLike | null = null;
  readonly events = new ShellEventBus();
  readonly quit: QuitCoordinator;
  private origin = '';
  private starting: Promise<Core> | null = null;
  private unsubscribe: (() => void) | null = null;
  private trayPending = false;
  private readonly notifier: Notifier;

  constructor(
    private readonly platform: ShellPlatform,
    private readonly options: ShellOptions,
  ) {
    this.quit = new QuitCoordinator({
      app: platform.app,
      close: () => this.close(),
      onError: (message, err) => options.logger.error(message, err ? { message: err instanceof Error ? err.message : String(err) } : undefined),
    });
    this.notifier = new Notifier({
      details: (id) => (this.core ? activityDetails(this.core.database.db, id) : null),
      supported: () => platform.notificationsSupported(),
      windowFocused: () => this.liveWindow()?.isFocused() ?? false,
      show: (notice) => platform.notify({ title: notice.title, body: notice.body }, () => this.openWindow(notice.route)),
    });
  }

  /** Before `ready`: the single-instance lock and the app-level handlers. False: another instance runs. */
  claim(): boolean {
    if (!claimSingleInstance(this.platform.app, () => this.openWindow())) return false;
    this.platform.app.on('before-quit', (event) => this.quit.beforeQuit(event));
    this.platform.app.on('window-all-closed', () => {
      // macOS keeps apps alive without windows (the dock and tray reopen it); elsewhere closing quits.
      if (this.platform.platform !== 'darwin') this.platform.app.quit();
    });
    this.platform.app.on('activate', () => this.openWindow());
    this.platform.onWebContentsCreated((contents) => this.guard(contents));
    return true;
  }

  /** After `ready`: core, session policy, IPC, tray, notifications, window. */
  async start(): Promise<void> {
    this.starting = this.startCore();
    const core = await this.starting;
    this.core = core;
    // Quit asked for while the core was starting: the coordinator closes it; nothing more to open.
    if (this.quit.phase !== 'running') return;
    this.origin = appOrigin(core.url);
    if (core.keyProvider.warning) this.options.logger.warn(core.keyProvider.warning);

    this.platform.session.onHeadersReceived([`${this.origin}/*`], (details) => withSecurityHeaders(details.responseHeaders));
    this.platform.session.setPermissionRequestHandler((permission, url) => decidePermission(this.origin, permission, url));
    this.platform.session.setPermissionCheckHandler((permission, origin) => decidePermission(this.origin, permission, origin));
    this.registerIpc(core);

    this.tray = this.platform.createTray(trayIconPng());
    this.tray.onClick(() => this.openWindow());
    this.updateTray();
    this.unsubscribe = this.events.subscribeAll((event) => {
      // Runs change the running count; almost any other event may change the inbox count. The
      // transcript stream changes neither.
      if (event.type !== 'run.log') this.scheduleTrayUpdate();
      try {
        this.notifier.handle(event);
      } catch (err) {
        this.options.logger.error('could not show a notification', { message: err instanceof Error ? err.message : String(err) });
      }
    });
    this.openWindow();
  }

  private async startCore(): Promise<Core> {
    const { nativeBinding } = this.options;
    if (nativeBinding && !existsSync(nativeBinding)) {
      throw new Error(`The Electron build of better-sqlite3 is missing (${nativeBinding}). Run \`npm run electron:native\` (needs the network), then start again.`);
    }
    const factory = this.options.startCore ?? createCore;
    const base: CoreOptions = {
      home: this.options.home,
      keyProvider: await this.options.keyProvider(),
      logger: this.options.logger,
      events: this.events,
      ...(nativeBinding ? { nativeBinding } : {}),
    };
    const port = this.options.port ?? PREFERRED_PORT;
    try {
      return await factory({ ...base, port });
    } catch (err) {
      if (port === 0 || !isAddressInUse(err)) throw err;
      this.options.logger.warn(`port ${port} is in use; the desktop core listens on a free port instead`);
      return factory({ ...base, port: 0 });
    }
  }

  private registerIpc(core: Core): void {
    const ipc = this.platform.ipc;
    ipc.onSync(BRIDGE_CHANNELS.bootstrap, (senderUrl): BootstrapReply | null =>
      isAppUrl(this.origin, senderUrl)
        ? { apiBaseUrl: core.url, token: core.boardToken, appVersion: this.platform.app.getVersion(), platform: this.platform.platform }
        : null,
    );
    ipc.handle(BRIDGE_CHANNELS.revealPath, (senderUrl, requested) => {
      if (!isAppUrl(this.origin, senderUrl)) return false;
      const target = revealablePath(requested, existsSync);
      if (!target) return false;
      this.platform.showItemInFolder(target);
      return true;
    });
    ipc.handle(BRIDGE_CHANNELS.notificationState, (senderUrl): NotificationState | null =>
      isAppUrl(this.origin, senderUrl) ? { supported: this.platform.notificationsSupported() } : null,
    );
    ipc.handle(BRIDGE_CHANNELS.pickFolder, async (senderUrl, requested): Promise<string | null> => {
      if (!isAppUrl(this.origin, senderUrl)) return null;
      const options = (requested && typeof requested === 'object' ? requested : {}) as { title?: unknown; defaultPath?: unknown };
      const title = typeof options.title === 'string' && options.title ? options.title.slice(0, 200) : 'Choose a folder';
      const start = openableFolder(options.defaultPath);
      const chosen = await this.platform.pickFolder(this.liveWindow(), { title, ...(start ? { defaultPath: start } : {}) });
      return chosen && path.isAbsolute(chosen) ? chosen : null;
    });
    ipc.handle(BRIDGE_CHANNELS.openPath, async (senderUrl, requested): Promise<boolean> => {
      if (!isAppUrl(this.origin, senderUrl)) return false;
      // A folder only: opening a file hands it to its default application, which for a script an
      // agent wrote in its worktree would mean running it.
      const target = openableFolder(requested);
      if (!target) return false;
      return (await this.platform.openPath(target)) === '';
    });
  }

  /** Every web contents: navigation stays on the app origin, new windows go to the browser or nowhere. */
  guard(contents: WebContentsLike): void {
    const onNavigate = (event: { preventDefault(): void }, url: string) => {
      const decision = decideNavigation(this.origin, url);
      if (decision.allow) return;
      event.preventDefault();
      if (decision.openExternal) void this.platform.openExternal(decision.openExternal);
    };
    contents.on('will-navigate', onNavigate);
    contents.on('will-redirect', onNavigate);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      const decision = decideWindowOpen(url);
      if (decision.openExternal) void this.platform.openExternal(decision.openExternal);
      return { action: decision.action };
    });
  }

  private liveWindow(): WindowLike | null {
    return this.window && !this.window.isDestroyed() ? this.window : null;
  }

  /** Shows (or creates) the window; `route` is a renderer hash route such as `#/runs/<id>`. */
  openWindow(route?: string): void {
    if (!this.core || this.quit.phase !== 'running') return;
    const existing = this.liveWindow();
    if (existing) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      if (route) void existing.webContents.executeJavaScript(`location.hash = ${JSON.stringify(route)}`).catch(() => {});
      return;
    }
    const { bounds, maximized } = restoreBounds(loadWindowState(this.options.home), this.platform.displays(), this.platform.primaryWorkArea());
    const win = this.platform.createWindow({
      ...bounds,
      minWidth: MIN_SIZE.width,
      minHeight: MIN_SIZE.height,
      show: false,
      title: 'Headcount',
      backgroundColor: '#101114',
      autoHideMenuBar: true,
      webPreferences: webPreferences(this.options.preloadPath),
    });
    this.window = win;
    if (maximized) win.maximize();
    win.once('ready-to-show', () => win.show());
    win.on('close', () => {
      try {
        saveWindowState(this.options.home, { bounds: win.getNormalBounds(), maximized: win.isMaximized() });
      } catch (err) {
        this.options.logger.warn('could not save the window state', { message: err instanceof Error ? err.message : String(err) });
      }
    });
    win.on('closed', () => {
      if (this.window === win) this.window = null;
    });
    win.loadURL(`${this.origin}/${route ?? ''}`).catch((err: unknown) => {
      this.options.logger.error('the window could not load the board', { message: err instanceof Error ? err.message : String(err) });
    });
  }

  private scheduleTrayUpdate(): void {
    // Several runs ending in one tick cost one count.
    if (this.trayPending) return;
    this.trayPending = true;
    setImmediate(() => {
      this.trayPending = false;
      this.updateTray();
    });
  }

  updateTray(): void {
    if (!this.core || !this.tray || this.quit.phase !== 'running') return;
    const { items, count } = inboxItems(this.core.services);
    const label = trayLabel(countRunningAgents(this.core.database.db), count);
    try {
      this.notifier.handleInbox(items);
    } catch (err) {
      this.options.logger.error('could not show a notification', { message: err instanceof Error ? err.message : String(err) });
    }
    this.tray.setToolTip(label.tooltip);
    this.tray.setTitle(label.title);
    this.tray.setMenu([
      { label: label.menuLabel, enabled: false },
      ...(label.inboxLabel ? [{ label: label.inboxLabel, enabled: false }] : []),
      { type: 'separator' },
      { label: 'Open Headcount', click: () => this.openWindow() },
      { label: 'Quit Headcount', click: () => this.platform.app.quit() },
    ]);
  }

  /** Run once by the quit coordinator: stops following events, then closes the core. */
  private async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    const core = this.core ?? (await this.starting?.catch(() => null)) ?? null;
    await core?.close();
  }
}
