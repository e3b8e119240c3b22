import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, createCompany, createAgent, createAgentKey, type TestCore } from '../../helpers/core.js';
import { resolveBoardFile, BOARD_CSP } from '../../../main/core/http/static-board.js';
import { LOGIN_CODE_TTL_MS } from '../../../main/core/http/board-login.js';

/** A stand-in for dist/renderer: what `vite build` produces, in miniature. */
function fakeBoard(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'headcount-board-'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="./assets/index-abc123.js"></script>');
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'assets', 'index-abc123.js'), 'console.log("board")');
  writeFileSync(path.join(root, '.secret'), 'not for the web');
  return root;
}

let now = new Date('2026-11-22T12:00:00Z');
let t: TestCore;
let root: string;
beforeAll(async () => {
  root = fakeBoard();
  t = await startCore({ boardRoot: root, heartbeats: false, clock: { now: () => now } });
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const loginCode = () => new URL(t.core.loginLink().replace('/#/', '/')).searchParams.get('code')!;

describe('the board UI at /', () => {
  it('serves index.html at / and at every deep link, with a strict CSP and no caching', async () => {
    for (const p of ['/', '/issues/ACME-1', '/agents/x?tab=keys']) {
      const res = await t.api('GET', p, { token: null });
      expect(res.status, p).toBe(200);
      expect(res.text).toContain('<div id="root">');
      expect(res.headers.get('content-security-policy')).toBe(BOARD_CSP);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(BOARD_CSP).toContain("script-src 'self'");
    expect(BOARD_CSP).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('serves hashed assets for a year, and never dot-files or paths outside the build', async () => {
    const asset = await t.api('GET', '/assets/index-abc123.js', { token: null });
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("board")');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const dot = await t.api('GET', '/.secret', { token: null });
    expect(dot.text).not.toContain('not for the web');
    expect(resolveBoardFile(root, '/assets/index-abc123.js')).toBe('assets/index-abc123.js');
    expect(resolveBoardFile(root, '/../../etc/passwd')).toBeNull();
    expect(resolveBoardFile(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveBoardFile(root, '/.secret')).toBeNull();
    expect(resolveBoardFile(root, '/assets')).toBeNull();
    expect(resolveBoardFile(root, '/%E0%A4%A')).toBeNull();
  });

  it('leaves /api alone: unknown API paths answer in the error contract, and auth still applies', async () => {
    const unknown = await t.api('GET', '/api/no-such-route', { token: null });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'No route GET /api/no-such-route', code: 'route_not_found' });
    expect((await t.api('GET', '/api/companies', { token: null })).status).toBe(401);
    expect((await t.api('GET', '/api/health', { token: null })).status).toBe(200);
  });

  it('says the board is not built when dist/renderer is missing', async () => {
    const bare = await startCore({ boardRoot: path.join(root, 'missing'), heartbeats: false });
    try {
      const res = await bare.api('GET', '/', { token: null });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'board_not_built' });
    } finally {
      await bare.close();
    }
  });
});

describe('one-time login links', () => {
  it('trades a code for a session cookie exactly once, and never hands out the board token', async () => {
    const code = loginCode();
    expect(t.core.loginLink()).toMatch(new RegExp(`^${t.url}/#/login\\?code=[A-Za-z0-9_-]{32}$`));
    const first = await t.api('POST', '/api/board/login', { token: null, body: { code } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ signedIn: true, via: 'session' });
    expect(first.headers.get('set-cookie')).toMatch(/^headcount_session=[A-Za-z0-9_-]+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    expect(first.text).not.toContain(t.boardToken);
    const again = await t.api('POST', '/api/board/login', { token: null, body: { code } });
    expect(again.status).toBe(401);
    expect(again.body).toMatchObject({ code: 'login_code_invalid' });
    expect(again.text).not.toContain(t.boardToken);
  });

  it('refuses unknown and expired codes, and pages from other origins', async () => {
    expect((await t.api('POST', '/api/board/login', { token: null, body: { code: 'guess' } })).status).toBe(401);
    const code = loginCode();
    now = new Date(now.getTime() + LOGIN_CODE_TTL_MS + 1000);
    expect((await t.api('POST', '/api/board/login', { token: null, body: { code } })).status).toBe(401);
    const foreign = await t.api('POST', '/api/board/login', { token: null, body: { code: loginCode() }, headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(foreign.text).not.toContain(t.boardToken);
    const bad = await t.api('POST', '/api/board/login', { token: null, body: { code: '' } });
    expect(bad.status).toBe(400);
  });
});

describe('POST /api/demo', () => {
  it('creates the demo company through the API for the board, and refuses agents', async () => {
    const res = await t.api('POST', '/api/demo', { body: { invoke: false } });
    expect(res.status).toBe(201);
    expect(res.body.company.name).toMatch(/^Demo Co/);
    expect(res.body.agents.map((a: { name: string }) => a.name)).toEqual(['Ava', 'Ben']);
    const issues = await t.api('GET', `/api/companies/${res.body.company.id}/issues`);
    expect(issues.body.items).toHaveLength(1);

    const cid = await createCompany(t, 'Other');
    const agent = await createAgent(t, cid);
    const key = await createAgentKey(t, agent.id);
    const refused = await t.api('POST', '/api/demo', { token: key, body: {} });
    expect(refused.status).toBe(403);
  });
});
