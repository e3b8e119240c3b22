import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type TestCore } from '../../helpers/core.js';
import { BOARD_SESSION_TTL_MS } from '../../../main/core/auth/sessions.js';
import { readSessionCookie, SESSION_COOKIE } from '../../../main/core/http/board-login.js';

let now = new Date('2026-11-22T12:00:00Z');
let t: TestCore;
beforeAll(async () => {
  t = await startCore({ heartbeats: false, clock: { now: () => now } });
});
afterAll(async () => {
  await t.close();
});

const loginCode = () => new URL(t.core.loginLink().replace('/#/', '/')).searchParams.get('code')!;

/** Signs in like the board page does and returns the Cookie header a browser would send back. */
async function signIn(body: Record<string, string> = { code: loginCode() }): Promise<string> {
  const res = await t.api('POST', '/api/board/login', { token: null, body });
  expect(res.status, res.text).toBe(200);
  const setCookie = res.headers.get('set-cookie')!;
  return setCookie.split(';')[0]!;
}

const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({ token: null, headers: { cookie, ...extra } });

describe('the board session cookie', () => {
  it('signs every request of the browser in, with no bearer token, and says how', async () => {
    const cookie = await signIn();
    expect((await t.api('GET', '/api/companies', withCookie(cookie))).status).toBe(200);
    const session = await t.api('GET', '/api/board/session', withCookie(cookie));
    expect(session.body).toMatchObject({ signedIn: true, via: 'session' });
    expect(Date.parse(session.body.expiresAt) - now.getTime()).toBe(BOARD_SESSION_TTL_MS);
    // API clients keep the bearer token.
    expect((await t.api('GET', '/api/board/session')).body).toEqual({ signedIn: true, via: 'token', expiresAt: null });
  });

  it('is issued for the pasted board token too, and refused for a wrong one', async () => {
    const cookie = await signIn({ token: t.boardToken });
    expect((await t.api('GET', '/api/companies', withCookie(cookie))).status).toBe(200);
    const wrong = await t.api('POST', '/api/board/login', { token: null, body: { token: 'hcb_wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('survives a restart of the server (kept in the database)', async () => {
    const cookie = await signIn();
    const again = await startCore({ home: t.home, heartbeats: false, clock: { now: () => now } });
    try {
      expect((await again.api('GET', '/api/companies', withCookie(cookie))).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('refuses an unknown or malformed cookie with a clear 401', async () => {
    const res = await t.api('GET', '/api/companies', withCookie(`${SESSION_COOKIE}=nope`));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'session_expired' });
    expect(readSessionCookie(`${SESSION_COOKIE}=a;b=c`)).toBe('a');
    expect(readSessionCookie(`other=1; ${SESSION_COOKIE}=x y`)).toBeNull();
    expect(readSessionCookie(undefined)).toBeNull();
  });

  it('expires after its lifetime', async () => {
    const cookie = await signIn();
    now = new Date(now.getTime() + BOARD_SESSION_TTL_MS + 1000);
    const res = await t.api('GET', '/api/companies', withCookie(cookie));
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'session_expired' });
  });

  it('ends on sign-out: the server forgets it and clears the cookie, other sessions stay', async () => {
    const cookie = await signIn();
    const other = await signIn();
    const out = await t.api('DELETE', '/api/board/session', withCookie(cookie, { origin: t.url }));
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^headcount_session=; .*Max-Age=0/);
    expect((await t.api('GET', '/api/companies', withCookie(cookie))).status).toBe(401);
    expect((await t.api('GET', '/api/companies', withCookie(other))).status).toBe(200);
    // Its secret is not stored: only the hash is.
    const secret = readSessionCookie(other)!;
    const rows = t.core.database.sqlite.prepare('SELECT id FROM board_sessions').all() as { id: string }[];
    expect(rows.some((r) => r.id === secret)).toBe(false);
  });
});

describe('cross-site request forgery with the cookie', () => {
  it('refuses a state-changing request without a same-origin Origin header', async () => {
    const cookie = await signIn();
    const body = { name: 'Forged' };
    const noOrigin = await t.api('POST', '/api/companies', { ...withCookie(cookie), body });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body).toMatchObject({ code: 'origin_required' });
    const foreign = await t.api('POST', '/api/companies', { ...withCookie(cookie, { origin: 'https://evil.example' }), body });
    expect(foreign.status).toBe(403);
    const signOut = await t.api('DELETE', '/api/board/session', withCookie(cookie));
    expect(signOut.status).toBe(403);
    const companies = await t.api('GET', '/api/companies');
    expect(companies.body.map((c: { name: string }) => c.name)).not.toContain('Forged');

    const same = await t.api('POST', '/api/companies', { ...withCookie(cookie, { origin: t.url }), body });
    expect(same.status).toBe(201);
  });

  it('still applies the Host guard to cookie requests (DNS rebinding)', async () => {
    const cookie = await signIn();
    // fetch will not forge Host; a raw request does, as a rebinding page's would arrive.
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${t.url}/api/companies`, { headers: { host: `evil.example:${t.core.port}`, cookie } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});
