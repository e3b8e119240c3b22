import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../main/core/index.js';
import { memoryKeyProvider } from '../../../main/core/secrets/master-key.js';
import { silentLogger } from '../../../main/core/kernel/logger.js';
import { DesktopShell } from '../../../main/electron/shell.js';
import { contentSecurityPolicy } from '../../../main/electron/policy.js';
import { BRIDGE_CHANNELS } from '../../../preload/contract.js';
import { FakeEvent, FakePlatform, type FakeWindow } from './fake-platform.js';

/**
 * The shell against a real core (real SQLite file, real heartbeat processes) with Electron
 * replaced by a recording fake: what the window, tray and notifications would show.
 */
const TOKEN = 'hcb_shell-test-token';
const shells: DesktopShell[] = [];

async function boot(platform = new FakePlatform(), home = mkdtempSync(path.join(os.tmpdir(), 'hc-shell-'))) {
  let cores = 0;
  const shell = new DesktopShell(platform, {
    home,
    preloadPath: '/app/dist/preload/index.cjs',
    keyProvider: async () => memoryKeyProvider(),
    logger: silentLogger,
    port: 0,
    startCore: (o) => {
      cores++;
      return createCore({ ...o, boardToken: TOKEN, closeGraceMs: 1000 });
    },
  });
  shells.push(shell);
  expect(shell.claim()).toBe(true);
  await shell.start();
  const core = shell.core as Core;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(core.url + url, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : null,
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { shell, platform, core, api, home, window: platform.windows[0] as FakeWindow, cores: () => cores };
}

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function companyWithAgent(api: Awaited<ReturnType<typeof boot>>['api'], script: string) {
  const company = (await api('POST', '/api/companies', { name: 'Acme' })).body.id as string;
  const agent = await api('POST', `/api/companies/${company}/agents`, {
    name: 'Ada',
    role: 'ceo',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: ['-e', script] },
  });
  expect(agent.status).toBe(201);
  return { company, agentId: agent.body.id as string };
}

afterEach(async () => {
  for (const s of shells.splice(0)) {
    if (s.quit.phase === 'running') s.quit.beforeQuit(new FakeEvent());
    await s.quit.closing;
  }
});

describe('desktop shell window', () => {
  it('opens one isolated window on the core origin, with CSP and permission hooks for that origin', async () => {
    const { platform, core, window } = await boot();
    expect(platform.windows).toHaveLength(1);
    expect(window.loaded).toEqual([`${core.url}/`]);
    expect(window.options.show).toBe(false);
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: '/app/dist/preload/index.cjs' });
    const hook = platform.headerHooks[0]!;
    expect(hook.urls).toEqual([`${core.url}/*`]);
    expect(hook.listener({ url: `${core.url}/`, responseHeaders: { 'content-type': ['text/html'] } })['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    expect(platform.permissionRequest!('media', `${core.url}/`)).toBe(false);
    expect(platform.permissionRequest!('clipboard-sanitized-write', `${core.url}/`)).toBe(true);
    expect(platform.permissionCheck!('clipboard-sanitized-write', 'https://github.com')).toBe(false);
  });

  it('locks navigation of every web contents to the app and routes allow-listed links to the browser', async () => {
    const { platform, core, window } = await boot();
    const contents = window.webContents;
    const away = new FakeEvent();
    contents.emit('will-navigate', away, 'https://evil.example/');
    expect(away.prevented).toBe(true);
    const docs = new FakeEvent();
    contents.emit('will-redirect', docs, 'https://docs.anthropic.com/x');
    expect(docs.prevented).toBe(true);
    const home = new FakeEvent();
    contents.emit('will-navigate', home, `${core.url}/#/costs`);
    expect(home.prevented).toBe(false);
    const webview = new FakeEvent();
    contents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);
    expect(contents.openHandler!({ url: 'https://github.com/x' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(platform.opened).toEqual(['https://docs.anthropic.com/x', 'https://github.com/x']);
  });

  it('hands the token only to the app origin, and reveals only existing absolute paths', async () => {
    const { platform, core, home } = await boot();
    const bootstrap = platform.sync.get(BRIDGE_CHANNELS.bootstrap)!;
    expect(bootstrap(`${core.url}/`)).toEqual({ apiBaseUrl: core.url, token: TOKEN, appVersion: '9.9.9', platform: 'linux' });
    expect(bootstrap('https://evil.example/')).toBeNull();
    expect(bootstrap('')).toBeNull();
    const reveal = platform.handlers.get(BRIDGE_CHANNELS.revealPath)!;
    expect(reveal(`${core.url}/`, home)).toBe(true);
    expect(reveal(`${core.url}/`, path.join(home, 'missing'))).toBe(false);
    expect(reveal(`${core.url}/`, 'relative/path')).toBe(false);
    expect(reveal('https://evil.example/', home)).toBe(false);
    expect(platform.revealed).toEqual([home]);
    expect(platform.handlers.get(BRIDGE_CHANNELS.notificationState)!(`${core.url}/`)).toEqual({ supported: true });
  });

  it('a second launch focuses the existing window instead of opening another', async () => {
    const { platform, window } = await boot();
    window.minimized = true;
    platform.app.emit('second-instance');
    expect(platform.windows).toHaveLength(1);
    expect(window.minimized).toBe(false);
    expect(window.focused).toBe(true);
  });

  it('remembers the window bounds in the data home for the next window', async () => {
    const { platform, shell, window } = await boot();
    window.bounds = { x: 200, y: 150, width: 1000, height: 700 };
    window.close();
    shell.openWindow();
    expect(platform.windows).toHaveLength(2);
    expect(platform.windows[1]!.options).toMatchObject({ x: 200, y: 150, width: 1000, height: 700 });
  });
});

describe('tray and notifications from the core events', () => {
  it('counts running agents in the tray as heartbeats start and end', async () => {
    const { platform, api } = await boot();
    const tray = platform.trays[0]!;
    expect(tray.tooltip).toBe('Headcount: no agent running');
    const { company, agentId } = await companyWithAgent(api, 'setTimeout(() => {}, 60000)');
    const invoked = await api('POST', `/api/agents/${agentId}/heartbeat/invoke`, {});
    expect(invoked.status).toBe(202);
    await until(() => tray.title === '1', 'the tray to count the running agent');
    expect(tray.menu[0]).toEqual({ label: '1 agent running', enabled: false });
    const runs = (await api('GET', `/api/companies/${company}/heartbeat-runs?agentId=${agentId}`)).body.items as { id: string; status: string }[];
    const runId = runs.find((r) => r.status === 'running')!.id;
    expect((await api('POST', `/api/heartbeat-runs/${runId}/cancel`, {})).status).toBeLessThan(300);
    await until(() => tray.title === '', 'the tray to drop back to zero');
    expect(platform.notices).toEqual([]); // a cancelled run is not a failure
  });

  it('notifies a failed run once, and the click opens its route in the window', async () => {
    const { platform, api, window } = await boot();
    const made = await companyWithAgent(api, 'process.exit(3)');
    await api('POST', `/api/agents/${made.agentId}/heartbeat/invoke`, {});
    await until(() => platform.notices.length === 1, 'the run-failed notification');
    const { notice, click } = platform.notices[0]!;
    expect(notice.title).toBe('Run failed');
    // The failed run waits in the inbox: the tray says so.
    const tray = platform.trays[0]!;
    await until(() => tray.tooltip === 'Headcount: no agent running, 1 item in your inbox', 'the tray to count the inbox item');
    expect(tray.menu[1]).toEqual({ label: '1 item in your inbox', enabled: false });
    click();
    expect(window.focused).toBe(true);
    expect(window.webContents.executed[0]).toMatch(new RegExp(`^location\\.hash = "#/runs/[^"]+\\?company=${made.company}"$`));
  });

  it('notifies a blocked issue once, however often it is blocked again', async () => {
    const { platform, api } = await boot();
    const company = (await api('POST', '/api/companies', { name: 'Acme' })).body.id as string;
    const issue = (await api('POST', `/api/companies/${company}/issues`, { title: 'Ship it' })).body;
    expect((await api('PATCH', `/api/issues/${issue.id}`, { status: 'blocked' })).status).toBe(200);
    expect((await api('PATCH', `/api/issues/${issue.id}`, { status: 'todo' })).status).toBe(200);
    expect((await api('PATCH', `/api/issues/${issue.id}`, { status: 'blocked' })).status).toBe(200);
    expect(platform.notices.map((n) => n.notice.title)).toEqual(['Issue blocked']);
  });
});

describe('clean quit', () => {
  it('cancels the running heartbeat and closes the core once before the app quits, even when asked twice', async () => {
    const { platform, shell, core, api, cores } = await boot();
    const { company, agentId } = await companyWithAgent(api, 'setTimeout(() => {}, 60000)');
    await api('POST', `/api/agents/${agentId}/heartbeat/invoke`, {});
    await until(() => platform.trays[0]!.title === '1', 'the run to start');
    platform.app.quit();
    platform.app.quit();
    expect(platform.app.quitted).toBe(false);
    await shell.quit.closing;
    expect(platform.app.quitted).toBe(true);
    expect(core.database.sqlite.open).toBe(false);
    expect(cores()).toBe(1);
    const { openDatabase } = await import('../../../main/core/db/connection.js');
    const db = openDatabase(path.join(shell['options'].home, 'service.db'), { readonly: true });
    const rows = db.sqlite.prepare('SELECT status FROM heartbeat_runs WHERE company_id = ?').all(company) as { status: string }[];
    db.close();
    expect(rows.map((r) => r.status)).toEqual(['cancelled']);
    // After the quit, nothing reopens a window.
    shell.openWindow();
    expect(platform.windows).toHaveLength(1);
  });

  it('shows why when the Electron build of better-sqlite3 is missing, and quits without a core', async () => {
    const platform = new FakePlatform();
    const shell = new DesktopShell(platform, {
      home: mkdtempSync(path.join(os.tmpdir(), 'hc-shell-')),
      preloadPath: '/x.cjs',
      nativeBinding: '/nowhere/better_sqlite3.node',
      keyProvider: async () => memoryKeyProvider(),
      logger: silentLogger,
      port: 0,
    });
    shells.push(shell);
    shell.claim();
    await expect(shell.start()).rejects.toThrow(/npm run electron:native/);
    platform.app.quit();
    await shell.quit.closing;
    expect(platform.app.quitted).toBe(true);
    expect(platform.windows).toHaveLength(0);
  });
});
