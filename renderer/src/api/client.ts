import type { Connection } from './connection.js';

/**
 * A refused request, carrying the API's error contract `{error, code, details?}`. `message` is the
 * API's human message, meant to be shown as is.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
  /** The API's message under the `error` name of the contract. */
  get error(): string {
    return this.message;
  }
}

export type Query = Record<string, string | number | boolean | null | undefined | readonly string[]>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export function buildUrl(base: string, path: string, query?: Query): string {
  const url = `${base}${path}`;
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    params.set(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

/** Turns a non-2xx response into an ApiError, whatever its body looks like. */
export async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown; details?: unknown };
    if (typeof body.error === 'string' && typeof body.code === 'string') return new ApiError(res.status, body.code, body.error, body.details);
  } catch {
    // not JSON: fall through to a generic message
  }
  return new ApiError(res.status, 'http_error', `${res.status} ${res.statusText || 'error'}${text ? `: ${text.slice(0, 200)}` : ''}`);
}

export interface ApiClient {
  readonly connection: Connection;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
  /** Multipart upload (FormData); the browser sets the boundary. */
  upload<T>(path: string, form: FormData): Promise<T>;
  /** A fetch with the bearer token, for streams and binary content. */
  raw(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * `onUnauthorized` hears every 401 (session ended, token revoked) once per response, with the
 * API's error: the page leaves for the sign-in screen instead of showing broken pages.
 */
export function createApiClient(
  connection: Connection,
  fetchFn: typeof fetch = (...args) => fetch(...args),
  onUnauthorized?: (error: ApiError) => void,
): ApiClient {
  // Without a token the browser's session cookie signs the request (same origin only).
  const auth: Record<string, string> = connection.token ? { authorization: `Bearer ${connection.token}` } : {};

  async function send(method: string, url: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetchFn(url, { method, credentials: 'same-origin', ...init, headers: { ...auth, ...(init.headers as Record<string, string> | undefined) } });
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      throw new ApiError(0, 'network_error', 'Cannot reach Headcount. Is the server running?');
    }
    if (res.status === 401 && onUnauthorized) {
      onUnauthorized(await toApiError(res.clone()));
    }
    return res;
  }

  async function parse<T>(res: Response): Promise<T> {
    if (!res.ok) throw await toApiError(res);
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  const client: ApiClient = {
    connection,
    async request<T>(method: string, path: string, options: RequestOptions = {}) {
      const hasBody = options.body !== undefined;
      const res = await send(method, buildUrl(connection.apiBaseUrl, path, options.query), {
        headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...options.headers },
        ...(hasBody ? { body: JSON.stringify(options.body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return parse<T>(res);
    },
    get: (path, query) => client.request('GET', path, query ? { query } : {}),
    post: (path, body) => client.request('POST', path, body === undefined ? {} : { body }),
    patch: (path, body) => client.request('PATCH', path, { body }),
    put: (path, body) => client.request('PUT', path, { body }),
    delete: (path) => client.request('DELETE', path),
    async upload<T>(path: string, form: FormData) {
      return parse<T>(await send('POST', `${connection.apiBaseUrl}${path}`, { body: form }));
    },
    raw: (path, init = {}) => send(init.method ?? 'GET', `${connection.apiBaseUrl}${path}`, init),
  };
  return client;
}

/** Human message for anything thrown: the API's message for ApiError, else the error's own. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
