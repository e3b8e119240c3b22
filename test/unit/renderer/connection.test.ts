import { describe, expect, it } from 'vitest';
import { forgetCredential, SESSION_PATH } from '../../../renderer/src/api/connection.js';

/** A fetch that answers the session check with `sessionStatus` and records every call. */
function fakeFetch(sessionStatus: number) {
  const calls: string[] = [];
  const fn: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    calls.push(`${method} ${String(input)}`);
    if (method === 'GET') return new Response('{}', { status: sessionStatus });
    return new Response(null, { status: sessionStatus === 200 ? 204 : 401 });
  };
  return { fn, calls };
}

describe('forgetCredential (after a 401)', () => {
  it('ends a refused browser session on the server, which clears the cookie', async () => {
    const f = fakeFetch(401);
    expect(await forgetCredential({ apiBaseUrl: 'http://h', token: null }, f.fn)).toBe(true);
    expect(f.calls).toEqual([`GET http://h${SESSION_PATH}`, `DELETE http://h${SESSION_PATH}`]);
  });

  it('keeps a session another tab signed in meanwhile (never signs it out)', async () => {
    const f = fakeFetch(200);
    expect(await forgetCredential({ apiBaseUrl: 'http://h', token: null }, f.fn)).toBe(false);
    expect(f.calls).toEqual([`GET http://h${SESSION_PATH}`]);
  });

  it("drops the desktop window's token without calling the server", async () => {
    const f = fakeFetch(401);
    expect(await forgetCredential({ apiBaseUrl: 'http://h', token: 'forged' }, f.fn)).toBe(true);
    expect(f.calls).toEqual([]);
  });
});
