/**
 * Entry of the desktop app (`electron dist/main/electron/main.js`; `main` of the packaged app).
 * The one file of main/electron that imports `electron`: it adapts the real module to the
 * `ShellPlatform` interface and hands over to DesktopShell, where everything testable lives.
 * Its types come from the real package when installed, else from types/electron-fallback.d.ts
 * (see electron-like.ts for why).
 */
import path from 'node:path';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  safeStorage,
  screen,
  session,
  shell,
  Tray,
  type WebContents,
} from 'electron';
import { PACKAGE_ROOT, VERSION } from '../core/kernel/package-root.js';
import { stderrLogger } from '../core/kernel/logger.js';
import { resolveHome } from '../cli/home.js';
import type { ShellPlatform, TrayLike, WebContentsLike, WindowLike } from './electron-like.js';
import { desktopKeyProvider } from './key-provider.js';
import { electronNativeBinding } from './native-binding.js';
import { DesktopShell } from './shell.js';
import { trayIconPng } from './tray-icon.js';

const APP_ID = 'dev.headcount.app';
const home = resolveHome();
const resourcesPath = (process as NodeJS.Process & { resourcesPath?: string }).resourcesPath ?? '';

function contentsLike(contents: WebContents): WebContentsLike {
  return {
    id: contents.id,
    getURL: () => contents.getURL(),
    on(event: string, listener: (event: { preventDefault(): void }, url: string) => void) {
      if (event === 'will-navigate') contents.on('will-navigate', (e, url) => listener(e, url));
      else if (event === 'will-redirect') contents.on('will-redirect', (e, url) => listener(e, url));
      else if (event === 'will-attach-webview') contents.on('will-attach-webview', (e) => listener(e, ''));
    },
    setWindowOpenHandler: (handler) => contents.setWindowOpenHandler((details) => handler({ url: details.url })),
    executeJavaScript: (code) => contents.executeJavaScript(code),
  };
}

function windowLike(win: BrowserWindow): WindowLike {
  return {
    webContents: contentsLike(win.webContents),
    loadURL: (url) => win.loadURL(url),
    show: () => win.show(),
    focus: () => win.focus(),
    restore: () => win.restore(),
    maximize: () => win.maximize(),
    isMinimized: () => win.isMinimized(),
    isMaximized: () => win.isMaximized(),
    isFocused: () => win.isFocused(),
    isDestroyed: () => win.isDestroyed(),
    getNormalBounds: () => win.getNormalBounds(),
    once: (_event, listener) => void win.once('ready-to-show', listener),
    on: (event, listener) => void (event === 'close' ? win.on('close', () => listener()) : win.on('closed', listener)),
  };
}

function trayLike(icon: Buffer): TrayLike {
  const tray = new Tray(nativeImage.createFromBuffer(icon));
  return {
    setToolTip: (text) => tray.setToolTip(text),
    // Only macOS draws a title beside the tray icon.
    setTitle: (text) => void (process.platform === 'darwin' && tray.setTitle(text)),
    setMenu: (items) => tray.setContextMenu(Menu.buildFromTemplate(items.map((item) => ({ ...item })))),
    onClick: (listener) => void tray.on('click', () => listener()),
  };
}

// Notifications are garbage-collected with their click handler unless something holds them.
const shownNotifications = new Set<Notification>();

const platform: ShellPlatform = {
  app: {
    requestSingleInstanceLock: () => app.requestSingleInstanceLock(),
    on(event: string, listener: (event: { preventDefault(): void }) => void) {
      if (event === 'before-quit') app.on('before-quit', (e) => listener(e));
      else if (event === 'second-instance') app.on('second-instance', () => listener({ preventDefault() {} }));
      else if (event === 'window-all-closed') app.on('window-all-closed', () => listener({ preventDefault() {} }));
      else if (event === 'activate') app.on('activate', () => listener({ preventDefault() {} }));
    },
    quit: () => app.quit(),
    exit: (code) => app.exit(code),
    // From Headcount's package.json: under `electron dist/main/electron/main.js` Electron reports its own.
    getVersion: () => VERSION,
    get isPackaged() {
      return app.isPackaged;
    },
  },
  platform: process.platform,
  createWindow: (options) => windowLike(new BrowserWindow({ ...options, icon: nativeImage.createFromBuffer(trayIconPng(256)) })),
  session: {
    onHeadersReceived: (urls, listener) =>
      session.defaultSession.webRequest.onHeadersReceived({ urls }, (details, callback) => callback({ responseHeaders: listener(details) })),
    setPermissionRequestHandler: (handler) =>
      session.defaultSession.setPermissionRequestHandler((_contents, permission, callback, details) => callback(handler(permission, details.requestingUrl))),
    setPermissionCheckHandler: (handler) =>
      session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) => handler(permission, requestingOrigin)),
  },
  ipc: {
    onSync: (channel, handler) =>
      void ipcMain.on(channel, (event) => {
        event.returnValue = handler(event.senderFrame?.url ?? '');
      }),
    handle: (channel, handler) => ipcMain.handle(channel, (event, ...args: unknown[]) => handler(event.senderFrame?.url ?? '', ...args)),
  },
  onWebContentsCreated: (listener) => void app.on('web-contents-created', (_event, contents) => listener(contentsLike(contents))),
  openExternal: (url) => shell.openExternal(url),
  showItemInFolder: (fullPath) => shell.showItemInFolder(fullPath),
  createTray: trayLike,
  notificationsSupported: () => Notification.isSupported(),
  notify(notice, onClick) {
    const n = new Notification({ title: notice.title, body: notice.body });
    shownNotifications.add(n);
    n.on('click', () => {
      shownNotifications.delete(n);
      onClick();
    });
    n.on('close', () => shownNotifications.delete(n));
    n.show();
  },
  displays: () => screen.getAllDisplays().map((d) => d.workArea),
  primaryWorkArea: () => screen.getPrimaryDisplay().workArea,
  showErrorBox: (title, message) => dialog.showErrorBox(title, message),
};

app.setName('Headcount');
// Electron's own profile (and with it the single-instance lock) lives in the data home: one app per
// data home, and two homes on one laptop can run side by side.
app.setPath('userData', path.join(home, 'desktop'));
if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
// Every renderer sandboxed, whatever options a window is created with.
app.enableSandbox();

const desktop = new DesktopShell(platform, {
  home,
  preloadPath: path.join(PACKAGE_ROOT, 'dist', 'preload', 'index.cjs'),
  nativeBinding: electronNativeBinding({ packaged: app.isPackaged, resourcesPath, packageRoot: PACKAGE_ROOT }),
  keyProvider: () => desktopKeyProvider(home, { safeStorage }),
  logger: stderrLogger,
});

if (desktop.claim()) {
  // Ctrl-C in the terminal of `npm start` quits cleanly too.
  process.on('SIGINT', () => app.quit());
  process.on('SIGTERM', () => app.quit());
  app
    .whenReady()
    .then(() => desktop.start())
    .catch((err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      stderrLogger.error('Headcount could not start', { message });
      dialog.showErrorBox('Headcount could not start', message);
      app.quit();
    });
}
