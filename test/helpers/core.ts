import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore, type Core, type CoreOptions } from '../../main/core/index.js';
import { memoryKeyProvider } from '../../main/core/secrets/master-key.js';
import { silentLogger } from '../../main/core/kernel/logger.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body sent as-is (with `contentType`), for malformed-input tests. */
  raw?: string | Buffer | FormData;
  contentType?: string;
  /** Bearer token; defaults to the board token. `null` sends no Authorization header. */
  token?: string | null;
  headers?: Record<string, string>;
}

export interface TestCore {
  core: Core;
  home: string;
  url: string;
  boardToken: string;
  api<T = any>(method: string, urlPath: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Row counts of every table, to prove a rejected request wrote nothing. */
  snapshot(): Record<string, number>;
  close(): Promise<void>;
}

export function tempHome(prefix = 'headcount-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A real core on a real SQLite file in a temp home, listening on a free loopback port. */
export async function startCore(options: Partial<CoreOptions> = {}): Promise<TestCore> {
  const home = options.home ?? tempHome();
  const core = await createCore({
    home,
    port: 0,
    boardToken: 'hcb_test-board-token',
    keyProvider: memoryKeyProvider(),
    logger: silentLogger,
    ...options,
  });
  const api = async (method: string, urlPath: string, o: RequestOptions = {}): Promise<ApiResponse<any>> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const token = o.token === undefined ? core.boardToken : o.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: string | Buffer | FormData | undefined;
    if (o.raw !== undefined) {
      body = o.raw;
      if (o.contentType) headers['content-type'] = o.contentType;
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(core.url + urlPath, { method, headers, body: body as RequestInit["body"] });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
  const snapshot = () => {
    // The search index catches up in the background after commits (search/indexer.ts): settled
    // first, so that only what a request itself wrote tells two snapshots apart.
    core.services.search.indexPending();
    const tables = core.database.sqlite
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    const counts: Record<string, number> = {};
    for (const { name } of tables) {
      counts[name] = (core.database.sqlite.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
    }
    // Counts miss in-place updates; total_changes() catches those too.
    counts.__total_changes = (core.database.sqlite.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    return counts;
  };
  return {
    core,
    home,
    url: core.url,
    boardToken: core.boardToken,
    api,
    snapshot,
    async close() {
      await core.close();
      if (!options.home) rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Creates a company and returns its id. */
export async function createCompany(t: TestCore, name = 'Acme'): Promise<string> {
  const res = await t.api('POST', '/api/companies', { body: { name } });
  if (res.status !== 201) throw new Error(`create company: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Creates a process-adapter agent and returns it. */
export async function createAgent(t: TestCore, companyId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
    body: { name: 'Ada', role: 'ceo', adapterType: 'process', adapterConfig: { command: 'echo' }, ...body },
  });
  if (res.status !== 201) throw new Error(`create agent: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates an agent key and returns the full key. */
export async function createAgentKey(t: TestCore, agentId: string): Promise<string> {
  const res = await t.api('POST', `/api/agents/${agentId}/keys`, { body: {} });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${res.text}`);
  return res.body.key;
}
