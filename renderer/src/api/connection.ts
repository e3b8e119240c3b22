/**
 * Where the board's API lives and how it is signed in. Two sources, one shape:
 * - the Electron window: the preload puts `{apiBaseUrl, token}` on `window.headcount` (bearer token);
 * - a browser tab: same origin, signed in by an HttpOnly session cookie (token null) that the
 *   one-time link `npm start` prints sets; every tab and every restart shares it until "Sign out".
 */
export interface Connection {
  apiBaseUrl: string;
  /** Bearer token (desktop window); null when the browser's session cookie signs requests. */
  token: string | null;
}

/**
 * What the Electron preload exposes on `window.headcount` (preload/contract.ts, copied: the lint
 * boundary keeps the renderer off preload/). Undefined in a plain browser.
 */
export interface HeadcountBridge {
  apiBaseUrl: string;
  token: string;
  appVersion?: string;
  platform?: string;
  revealPath?(absolutePath: string): Promise<boolean>;
  notificationState?(): Promise<{ supported: boolean }>;
  pickFolder?(options?: { title?: string; defaultPath?: string }): Promise<string | null>;
  openPath?(absolutePath: string): Promise<boolean>;
}

declare global {
  interface Window {
    headcount?: HeadcountBridge;
  }
}

/** Where the board signs in and out (main/core/http/board-login.ts). */
export const LOGIN_PATH = '/api/board/login';
export const SESSION_PATH = '/api/board/session';

export function bridgeConnection(win: Pick<Window, 'headcount'>): Connection | null {
  const bridge = win.headcount;
  if (bridge && typeof bridge.apiBaseUrl === 'string' && typeof bridge.token === 'string' && bridge.token) {
    return { apiBaseUrl: bridge.apiBaseUrl.replace(/\/+$/, ''), token: bridge.token };
  }
  return null;
}

/** The `code` of a login link in the hash (`#/login?code=...`), if this page was opened by one. */
export function loginCodeFromHash(hash: string): string | null {
  const match = /^#\/login\?(.*)$/.exec(hash);
  if (!match) return null;
  return new URLSearchParams(match[1]).get('code');
}

export class LoginError extends Error {
  override name = 'LoginError';
}

/** Signs this browser in (sets the session cookie) with a one-time code or the board token itself. */
export async function signIn(origin: string, credential: { code: string } | { token: string }, fetchFn: typeof fetch = fetch): Promise<void> {
  const res = await fetchFn(`${origin}${LOGIN_PATH}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credential),
  });
  if (res.ok) return;
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  throw new LoginError(body?.error ?? `Sign-in failed (${res.status})`);
}

/** Ends this browser's session: the server forgets it and clears the cookie. */
export async function signOut(origin: string, fetchFn: typeof fetch = fetch): Promise<void> {
  await fetchFn(`${origin}${SESSION_PATH}`, { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
}

/**
 * A request was refused (401): the credential this page holds is no good, so forget it. The desktop
 * window's token is dropped with its connection. A browser session is ended on the server (which
 * clears the cookie; refused, harmlessly, when the session is already gone) — unless the browser
 * holds a live session again because another tab signed in meanwhile: then this page carries on.
 * Resolves whether the page must return to the sign-in page.
 */
export async function forgetCredential(connection: Connection, fetchFn: typeof fetch = (...a) => fetch(...a)): Promise<boolean> {
  if (connection.token) return true;
  const res = await fetchFn(`${connection.apiBaseUrl}${SESSION_PATH}`, { credentials: 'same-origin' }).catch(() => null);
  if (res?.ok) return false;
  await signOut(connection.apiBaseUrl, fetchFn);
  return true;
}

/** What the page starts with: a connection, or the sign-in page with an optional message. */
export type StartState = { connection: Connection } | { connection: null; message: string | null };

/**
 * Resolves the connection at start: the Electron bridge first, then a login code in the URL
 * (traded for the session cookie, and the code removed from the address bar), then the cookie of
 * an earlier sign-in, checked with the server.
 */
export async function resolveConnection(win: Window = window, fetchFn: typeof fetch = (...a) => fetch(...a)): Promise<StartState> {
  const fromBridge = bridgeConnection(win);
  if (fromBridge) return { connection: fromBridge };
  const origin = win.location.origin;
  const code = loginCodeFromHash(win.location.hash);
  if (code) {
    // A code works once: take it out of the address bar first, so a reload cannot reuse it.
    win.history.replaceState(null, '', `${win.location.pathname}#/`);
    try {
      await signIn(origin, { code }, fetchFn);
    } catch (err) {
      return { connection: null, message: err instanceof Error ? err.message : String(err) };
    }
    return { connection: { apiBaseUrl: origin, token: null } };
  }
  const res = await fetchFn(`${origin}${SESSION_PATH}`, { credentials: 'same-origin' }).catch(() => null);
  if (!res) return { connection: null, message: 'Cannot reach Headcount. Is the server running?' };
  if (res.ok) return { connection: { apiBaseUrl: origin, token: null } };
  const body = (await res.json().catch(() => null)) as { code?: string; error?: string } | null;
  // No cookie at all is a first visit, not an error; a refused cookie is worth saying.
  return { connection: null, message: body?.code === 'session_expired' ? (body.error ?? null) : null };
}
