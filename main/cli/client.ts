import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { BOARD_TOKEN_FILE } from '../core/auth/board-token.js';
import { collectArrayPages } from '../core/kernel/array-pages.js';

export const DEFAULT_URL = 'http://127.0.0.1:3100';

/** A refused request, with the API's error code (`{error, code, details}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface Connection {
  url: string;
  token: string;
}

/**
 * Where and as whom the CLI talks to a running server: `--url` (default 127.0.0.1:3100) and
 * `--token`, else SERVICE_BOARD_TOKEN, else the board-token file of the data home.
 */
export function resolveConnection(opts: { url?: string | undefined; token?: string | undefined }, home: string, env: NodeJS.ProcessEnv = process.env): Connection {
  const url = (opts.url ?? DEFAULT_URL).replace(/\/+$/, '');
  let token = opts.token ?? env.SERVICE_BOARD_TOKEN;
  if (!token) {
    const file = path.join(home, BOARD_TOKEN_FILE);
    if (!existsSync(file)) throw new Error(`No board token: pass --token, set SERVICE_BOARD_TOKEN, or start the server once so ${file} exists`);
    token = readFileSync(file, 'utf8').trim();
  }
  return { url, token };
}

export interface ApiClient {
  readonly url: string;
  request<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T>;
  /** Every page of a list the API answers as a plain array, following its `Link: rel="next"`. */
  all<T = unknown>(urlPath: string, pageSize?: number): Promise<T[]>;
}


export function createClient(conn: Connection): ApiClient {
  async function send(method: string, urlPath: string, body?: unknown): Promise<{ parsed: unknown; headers: Headers }> {
    let res: Response;
    try {
      res = await fetch(conn.url + urlPath, {
        method,
        headers: { authorization: `Bearer ${conn.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : null,
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new Error(`Cannot reach Headcount at ${conn.url}${cause ? ` (${cause})` : ''}: is the server running? Start it with \`headcount serve\`.`);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    if (res.status >= 400) {
      const e = (parsed ?? {}) as { error?: string; code?: string; details?: unknown };
      throw new ApiError(res.status, e.code ?? 'http_error', `${method} ${urlPath}: ${res.status} ${e.error ?? text}`, e.details);
    }
    return { parsed, headers: res.headers };
  }
  return {
    url: conn.url,
    async request<T>(method: string, urlPath: string, body?: unknown): Promise<T> {
      return (await send(method, urlPath, body)).parsed as T;
    },
    all<T>(urlPath: string, pageSize?: number): Promise<T[]> {
      return collectArrayPages<T>(
        urlPath,
        async (url) => {
          const { parsed, headers } = await send('GET', url);
          return { body: parsed, link: headers.get('link') };
        },
        pageSize,
      );
    },
  };
}
