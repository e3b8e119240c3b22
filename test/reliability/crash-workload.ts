import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { rawRequest, ROOT } from '../api/durability/serve-process.js';

export const FAKE_AGENT = path.join(ROOT, 'test', 'fixtures', 'fake-agent.mjs');

/** A small seeded PRNG (mulberry32): a failing cycle can be replayed with its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A write the server answered 2xx: it must survive any crash after the answer. */
export interface Ack {
  table: string;
  id: string;
  /** For documents: the revision number the answer reported; the row may only be newer. */
  revision?: number;
}

export interface World {
  url: string;
  token: string;
  companyId: string;
  /** Agents with API keys doing checkouts by hand. */
  workers: { id: string; key: string }[];
  /** Agents running the fake CLI (runs with output, checkouts bound to runs). */
  runners: { id: string; key: string; mode: string }[];
  issues: string[];
}

export async function call(url: string, method: string, p: string, token: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await rawRequest(url, method, p, { token, ...(body === undefined ? {} : { body }) });
  return { status: res.status, body: res.text ? JSON.parse(res.text) : null };
}

async function must(url: string, method: string, p: string, token: string, body?: unknown) {
  const res = await call(url, method, p, token, body);
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function setupWorld(url: string, token: string): Promise<World> {
  const company = await must(url, 'POST', '/api/companies', token, { name: 'Crash Co' });
  const hire = async (name: string, adapterConfig: Record<string, unknown>) => {
    const agent = await must(url, 'POST', `/api/companies/${company.id}/agents`, token, { name, role: 'engineer', adapterType: 'process', adapterConfig });
    const { key } = await must(url, 'POST', `/api/agents/${agent.id}/keys`, token, {});
    return { id: agent.id as string, key: key as string };
  };
  const workers = [];
  for (let i = 0; i < 3; i++) workers.push(await hire(`Worker ${i}`, { command: 'echo' }));
  const runners = [];
  // work: checkout, comment, done, cost; sleep: a run in flight for a while; grandchildren: a run
  // whose descendants outlive a dead server unless recovery finds them by SERVICE_RUN_ID. They run
  // outside the OS sandbox: a sandboxed run's processes die with the server (its PID namespace), so
  // only unsandboxed runs (macOS, Windows, opt-out) leave orphans for recovery to find, which is
  // what this loop exercises; the sandboxed case is test/api/confinement/processes.test.ts.
  for (const mode of ['work', 'work', 'sleep', 'grandchildren', 'checkout-then-hang']) {
    runners.push({ ...(await hire(`Runner ${mode} ${runners.length}`, { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: mode, FAKE_SLEEP_MS: '1500', FAKE_TICK_MS: '200' }, timeoutSec: 60, graceMs: 300, sandbox: false })), mode });
  }
  // Room for the held runs of a cycle beside the workload's own (the default cap is 4).
  await must(url, 'PUT', '/api/settings', token, { maxConcurrentRuns: 8 });
  const issues: string[] = [];
  for (let i = 0; i < 10; i++) issues.push((await must(url, 'POST', `/api/companies/${company.id}/issues`, token, { title: `Seed ${i}`, status: 'todo' })).id);
  return { url, token, companyId: company.id, workers, runners, issues };
}

/** One random operation; resolves with the writes the server acknowledged. */
export async function randomOp(w: World, url: string, rnd: () => number, n: number): Promise<Ack[]> {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const r = rnd();
  const t = w.token;
  if (r < 0.2) {
    const res = await call(url, 'POST', `/api/companies/${w.companyId}/issues`, t, { title: `Crash issue ${n}`, status: 'todo', priority: pick(['low', 'high']) });
    if (res.status !== 201) return [];
    w.issues.push(res.body.id);
    return [{ table: 'issues', id: res.body.id }];
  }
  if (r < 0.4) {
    const res = await call(url, 'POST', `/api/issues/${pick(w.issues)}/comments`, t, { body: `comment ${n} ${'x'.repeat(Math.floor(rnd() * 300))}` });
    return res.status === 201 ? [{ table: 'issue_comments', id: res.body.id }] : [];
  }
  if (r < 0.52) {
    const issue = pick(w.issues);
    const current = await call(url, 'GET', `/api/issues/${issue}/documents/notes`, t);
    const res = await call(url, 'PUT', `/api/issues/${issue}/documents/notes`, t, { title: 'Notes', format: 'markdown', body: `rev by op ${n}`, baseRevisionId: current.status === 200 ? current.body.revisionId : null });
    return res.status === 200 || res.status === 201 ? [{ table: 'issue_documents', id: res.body.id, revision: res.body.revisionNumber }] : [];
  }
  if (r < 0.64) {
    const res = await call(url, 'POST', `/api/companies/${w.companyId}/cost-events`, t, { agentId: pick(w.workers).id, provider: 'crash', model: 'm', inputTokens: 10, outputTokens: 1, costCents: 0.25 });
    return res.status === 201 ? [{ table: 'cost_events', id: res.body.id }] : [];
  }
  if (r < 0.84) {
    // A worker takes an issue and lets it go again; a crash between the two leaves it checked out
    // by a key (no run): a lock its agent still holds and can release.
    const worker = pick(w.workers);
    const issue = pick(w.issues);
    const got = await call(url, 'POST', `/api/issues/${issue}/checkout`, worker.key, { expectedStatuses: ['todo'] });
    if (got.status !== 200) return [];
    await call(url, 'POST', `/api/issues/${issue}/comments`, worker.key, { body: 'checked out' });
    await call(url, 'POST', `/api/issues/${issue}/release`, worker.key);
    return [];
  }
  // Only the runners that finish: a wake queued for a hanging runner would coalesce with the held
  // run of the next cycle (startHeldRuns) and keep it from its issue.
  const runner = pick(w.runners.filter((r) => r.mode === 'work' || r.mode === 'sleep'));
  const issue = await call(url, 'POST', `/api/companies/${w.companyId}/issues`, t, { title: `Run task ${n}`, status: 'todo' });
  if (issue.status !== 201) return [];
  w.issues.push(issue.body.id);
  const res = await call(url, 'POST', `/api/agents/${runner.id}/heartbeat/invoke`, t, { issueId: issue.body.id });
  return res.status === 202 ? [{ table: 'issues', id: issue.body.id }, { table: 'wake_requests', id: res.body.wakeRequestId }] : [];
}

/** Read-only view of the database file beside (or without) a running server. */
export function readDb<T>(file: string, fn: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

export const integrity = (file: string) => readDb(file, (db) => (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; '));

/** Pids of live processes carrying SERVICE_RUN_ID of one of these runs (Linux). */
export function processesOfRuns(runIds: ReadonlySet<string>): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    try {
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // a zombie is dead, only not yet reaped by its parent
      if (env.some((v) => v.startsWith('SERVICE_RUN_ID=') && runIds.has(v.slice(15)))) found.push(pid);
    } catch {
      // gone, or not readable
    }
  }
  return found;
}

export function missingAcks(db: Database.Database, acks: Ack[]): Ack[] {
  return acks.filter((a) => {
    if (a.table === 'issue_documents') {
      const row = db.prepare('SELECT d.id, max(r.revision_number) AS rev FROM issue_documents d JOIN issue_document_revisions r ON r.document_id = d.id WHERE d.id = ?').get(a.id) as { id: string | null; rev: number | null };
      return !row.id || (row.rev ?? 0) < (a.revision ?? 1);
    }
    return !db.prepare(`SELECT 1 FROM "${a.table}" WHERE id = ?`).get(a.id);
  });
}

export const hasTable = (db: Database.Database, name: string) => !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);

/** Invokes the checkout-then-hang and grandchildren runners, each on a fresh todo issue. */
export async function startHeldRuns(w: World, url: string): Promise<{ issueId: string; agentIds: string[] }> {
  let issueId = '';
  const agentIds: string[] = [];
  for (const mode of ['checkout-then-hang', 'grandchildren']) {
    const runner = w.runners.find((r) => r.mode === mode)!;
    const issue = await must(url, 'POST', `/api/companies/${w.companyId}/issues`, w.token, { title: `Held by ${mode}`, status: 'todo' });
    w.issues.push(issue.id);
    await must(url, 'POST', `/api/agents/${runner.id}/heartbeat/invoke`, w.token, { issueId: issue.id });
    if (mode === 'checkout-then-hang') issueId = issue.id;
    agentIds.push(runner.id);
  }
  return { issueId, agentIds };
}

/** Both held runs are running: the hanging one holds its issue, the other has a live process. */
export function heldRunsReady(db: Database.Database, held: { issueId: string; agentIds: string[] }): boolean {
  const issue = db.prepare('SELECT checkout_run_id FROM issues WHERE id = ?').get(held.issueId) as { checkout_run_id: string | null } | undefined;
  if (!issue?.checkout_run_id) return false;
  const running = held.agentIds.map((a) => db.prepare("SELECT id, pid FROM heartbeat_runs WHERE agent_id = ? AND status = 'running' AND pid IS NOT NULL").get(a) as { id: string } | undefined);
  return running.every((r) => r && processesOfRuns(new Set([r.id])).length > 0);
}
