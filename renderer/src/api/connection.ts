/**
 * Where the board's API lives and which token it sends. Two sources, one shape:
 * - the Electron window: the preload puts `{apiBaseUrl, token}` on `window.headcount`;
 * - a browser tab on `npm run serve`: same origin, and the board token obtained once from the
 *   one-time login link that `serve` prints, kept in sessionStorage (gone when the tab closes).
 */
export interface Connection {
  apiBaseUrl: string;
  token: string;
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
}

declare global {
  interface Window {
    headcount?: HeadcountBridge;
  }
}

export const TOKEN_STORAGE_KEY = 'headcount.boardToken';

/** Route of the one-time login link: `#/login?code=...`. */
export const LOGIN_PATH = '/api/board/login';

export function bridgeConnection(win: Pick<Window, 'headcount'>): Connection | null {
  const bridge = win.headcount;
  if (bridge && typeof bridge.apiBaseUrl === 'string' && typeof bridge.token === 'string' && bridge.token) {
    return { apiBaseUrl: bridge.apiBaseUrl.replace(/\/+$/, ''), token: bridge.token };
  }
  return null;
}

export function storedConnection(origin: string, storage: Pick<Storage, 'getItem'>): Connection | null {
  const token = storage.getItem(TOKEN_STORAGE_KEY);
  return token ? { apiBaseUrl: origin, token } : null;
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

/** Trades a one-time login code for the board token. A code works once; a reload must not reuse it. */
export async function exchangeLoginCode(origin: string, code: string, fetchFn: typeof fetch = fetch): Promise<string> {
  const res = await fetchFn(`${origin}${LOGIN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const body = (await res.json().catch(() => null)) as { token?: string; error?: string } | null;
  if (!res.ok || !body?.token) throw new LoginError(body?.error ?? `Login failed (${res.status})`);
  return body.token;
}

/**
 * Resolves the connection at start: the Electron bridge first, then a login code in the URL
 * (exchanged and stored, and the code removed from the address bar), then a stored token.
 */
export async function resolveConnection(win: Window = window): Promise<Connection | null> {
  const fromBridge = bridgeConnection(win);
  if (fromBridge) return fromBridge;
  const origin = win.location.origin;
  const code = loginCodeFromHash(win.location.hash);
  if (code) {
    const token = await exchangeLoginCode(origin, code);
    win.sessionStorage.setItem(TOKEN_STORAGE_KEY, token);
    win.history.replaceState(null, '', `${win.location.pathname}#/`);
    return { apiBaseUrl: origin, token };
  }
  return storedConnection(origin, win.sessionStorage);
}

export function forgetStoredToken(storage: Pick<Storage, 'removeItem'> = window.sessionStorage): void {
  storage.removeItem(TOKEN_STORAGE_KEY);
}
