import { openSse } from '../../helpers/sse.js';
import path from 'node:path';
import type { TestCore } from '../../helpers/core.js';

export { procState, waitGone } from '../../helpers/processes.js';

export const FAKE_AGENT = path.resolve(import.meta.dirname, '../../fixtures/fake-agent.mjs');

/** A process-adapter agent running the fake agent CLI with the given mode and extra env. */
export async function createFakeAgent(t: TestCore, companyId: string, name: string, env: Record<string, unknown> = {}, config: Record<string, unknown> = {}) {
  const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
    body: { name, adapterType: 'process', adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env, timeoutSec: 30, graceMs: 500, ...config } },
  });
  if (res.status !== 201) throw new Error(`create agent: ${res.status} ${res.text}`);
  return res.body;
}

/** Polls a run until it has ended. */
export async function waitForRun(t: TestCore, companyId: string, agentId: string, predicate: (run: any) => boolean = (r) => !['queued', 'running'].includes(r.status), timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`);
    const run = list.body.items?.find(predicate);
    if (run) return run;
    if (Date.now() > deadline) throw new Error(`no run matched: ${JSON.stringify(list.body.items?.map((r: any) => r.status))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function readLog(t: TestCore, runId: string): Promise<{ stream: string; data: string }[]> {
  const records: { stream: string; data: string }[] = [];
  let offset = 0;
  for (;;) {
    const page = await t.api('GET', `/api/heartbeat-runs/${runId}/log?offset=${offset}`);
    records.push(...page.body.records);
    if (page.body.nextOffset === offset) return records;
    offset = page.body.nextOffset;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls one run until the predicate holds (default: it has ended). */
export async function waitForRunId(t: TestCore, runId: string, predicate: (run: any) => boolean = (r) => !['queued', 'running'].includes(r.status), timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = (await t.api('GET', `/api/heartbeat-runs/${runId}`)).body;
    if (predicate(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not match: ${JSON.stringify(run)}`);
    await sleep(25);
  }
}

/** Polls until `check` returns a value other than undefined. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

/** JSON lines the fake agent printed, from the run's transcript. */
export async function fakeLines(t: TestCore, runId: string): Promise<any[]> {
  const text = (await readLog(t, runId)).filter((r) => r.stream === 'stdout').map((r) => r.data).join('');
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l.trim()));
}

/** Follows a company's event stream as the board. */
export const openEvents = (t: TestCore, companyId: string) =>
  openSse(`${t.url}/api/companies/${companyId}/events`, { authorization: `Bearer ${t.boardToken}` });
