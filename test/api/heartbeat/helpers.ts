import path from 'node:path';
import type { TestCore } from '../../helpers/core.js';

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
