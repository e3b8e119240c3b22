import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The entry file with the `electron` module replaced: proves main.ts adapts the real API shape
 * to the shell (sandbox on, lock, window options, preload path, nativeBinding of a packaged app,
 * safeStorage fallback) and quits cleanly. Electron itself cannot run here.
 */
const fake = vi.hoisted(() => {
  const state = {
    calls: [] as string[],
    appListeners: new Map<string, ((...a: any[]) => void)[]>(),
    windows: [] as { options: any; loaded: string[] }[],
    errors: [] as string[],
    quitted: false,
    ready: null as null | (() => void),
    headerFilters: [] as { urls: string[] }[],
    syncHandlers: new Map<string, (e: any) => void>(),
  };
  const on = (map: Map<string, ((...a: any[]) => void)[]>, name: string, l: (...a: any[]) => void) => map.set(name, [...(map.get(name) ?? []), l]);
  const emitter = () => {
    const m = new Map<string, ((...a: any[]) => void)[]>();
    return { on: (n: string, l: any) => on(m, n, l), once: (n: string, l: any) => on(m, n, l) };
  };
  const app = {
    isPackaged: true,
    setName: (n: string) => state.calls.push(`setName ${n}`),
    setPath: (n: string, p: string) => state.calls.push(`setPath ${n} ${p}`),
    setAppUserModelId: () => {},
    enableSandbox: () => state.calls.push('enableSandbox'),
    requestSingleInstanceLock: () => (state.calls.push('lock'), true),
    on: (n: string, l: any) => on(state.appListeners, n, l),
    whenReady: () => new Promise<void>((r) => (state.ready = r)),
    quit: () => {
      const event = { defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      for (const l of state.appListeners.get('before-quit') ?? []) l(event);
      if (!event.defaultPrevented) state.quitted = true;
    },
    exit: () => {},
    getVersion: () => 'electron-version',
  };
  class BrowserWindow {
    webContents = { id: 1, ...emitter(), getURL: () => '', setWindowOpenHandler: () => {}, executeJavaScript: async () => undefined };
    loaded: string[] = [];
    constructor(readonly options: any) {
      state.windows.push(this);
      for (const l of state.appListeners.get('web-contents-created') ?? []) l({}, this.webContents);
    }
    loadURL = async (u: string) => void this.loaded.push(u);
    show() {}
    focus() {}
    restore() {}
    maximize() {}
    isMinimized = () => false;
    isMaximized = () => false;
    isFocused = () => false;
    isDestroyed = () => false;
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 820 });
    once = emitter().once;
    on = emitter().on;
  }
  class Tray {
    constructor(readonly image: unknown) {}
    setToolTip() {}
    setTitle() {}
    setContextMenu() {}
    on() {}
  }
  class Notification {
    static isSupported = () => true;
    on() {}
    show() {}
  }
  const module = {
    app,
    BrowserWindow,
    Tray,
    Notification,
    Menu: { buildFromTemplate: (t: unknown) => t },
    nativeImage: { createFromBuffer: (b: Buffer) => ({ size: b.length }) },
    dialog: { showErrorBox: (t: string, m: string) => state.errors.push(`${t}: ${m}`) },
    shell: { openExternal: async () => {}, showItemInFolder: () => {} },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }], getPrimaryDisplay: () => ({ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }) },
    // Electron's safeStorage at the OS edge: reversible, marked so the test can see it was used.
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from(`sealed:${s}`),
      decryptString: (b: Buffer) => b.toString().replace(/^sealed:/, ''),
      getSelectedStorageBackend: () => 'gnome_libsecret',
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (f: { urls: string[] }) => void state.headerFilters.push(f) },
        setPermissionRequestHandler: () => {},
        setPermissionCheckHandler: () => {},
      },
    },
    ipcMain: { on: (c: string, l: any) => void state.syncHandlers.set(c, l), handle: () => {} },
  };
  return { state, module };
});

vi.mock('electron', () => ({ ...fake.module, default: fake.module }));

const home = mkdtempSync(path.join(os.tmpdir(), 'hc-entry-home-'));
const resources = mkdtempSync(path.join(os.tmpdir(), 'hc-entry-res-'));
const savedEnv = { home: process.env.SERVICE_HOME, dbus: process.env.DBUS_SESSION_BUS_ADDRESS };

afterAll(() => {
  delete (process as any).resourcesPath;
  for (const [k, v] of [['SERVICE_HOME', savedEnv.home], ['DBUS_SESSION_BUS_ADDRESS', savedEnv.dbus]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe('desktop entry (main.ts) with electron replaced', () => {
  it('boots the shell on the packaged app’s native binding and quits cleanly', async () => {
    // A packaged app keeps better-sqlite3 in <resources>/native; under Node the Node-ABI build stands in.
    const requireHere = createRequire(import.meta.url);
    const built = path.join(path.dirname(requireHere.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    mkdirSync(path.join(resources, 'native'));
    copyFileSync(built, path.join(resources, 'native', 'better_sqlite3.node'));
    (process as any).resourcesPath = resources;
    process.env.SERVICE_HOME = home;
    // The OS keychain is unreachable in this test: the shell must fall back to safeStorage.
    process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent';

    await import('../../../main/electron/main.js');
    expect(fake.state.calls).toEqual(['setName Headcount', `setPath userData ${path.join(home, 'desktop')}`, 'enableSandbox', 'lock']);
    fake.state.ready!();
    const deadline = Date.now() + 45_000;
    while (fake.state.windows.length === 0 && fake.state.errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(fake.state.errors).toEqual([]);
    const win = fake.state.windows[0]!;
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true });
    expect(win.options.webPreferences.preload).toMatch(/dist[\\/]preload[\\/]index\.cjs$/);
    expect(win.loaded[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const origin = new URL(win.loaded[0]!).origin;
    expect(fake.state.headerFilters).toEqual([{ urls: [`${origin}/*`] }]);

    const reply: { returnValue?: any } = {};
    fake.state.syncHandlers.get('headcount:bootstrap')!({ ...reply, senderFrame: { url: `${origin}/` }, set returnValue(v: any) { reply.returnValue = v; } });
    const { VERSION } = await import('../../../main/core/kernel/package-root.js');
    expect(reply.returnValue).toMatchObject({ apiBaseUrl: origin, appVersion: VERSION, platform: process.platform });
    const health = await fetch(`${origin}/api/system/status`, { headers: { authorization: `Bearer ${reply.returnValue.token}` } });
    expect(health.status).toBe(200);
    expect(((await health.json()) as any).keyProvider.kind).toBe('safe-storage');

    fake.module.app.quit();
    expect(fake.state.quitted).toBe(false);
    const until = Date.now() + 45_000;
    while (!fake.state.quitted && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(fake.state.quitted).toBe(true);
    await expect(fetch(`${origin}/api/health`)).rejects.toThrow();
  }, 90_000);
});
