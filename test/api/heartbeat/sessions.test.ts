import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ExecutionContext } from '@service/adapter-utils';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { eventually, waitForRunId } from './helpers.js';

let t: TestCore;
let companyId: string;
/** What each run of the session adapter was handed, in order. */
let received: { sessionParams: Record<string, unknown> | null; taskId: string | null }[];

beforeEach(async () => {
  received = [];
  const adapters = createBuiltinRegistry();
  const base = { models: [], agentConfigurationDoc: '', configSchema: z.object({}).passthrough(), testEnvironment: async () => ({ adapterType: 'test', status: 'pass' as const, checks: [], testedAt: new Date().toISOString() }) };
  adapters.register({
    ...base,
    type: 'test_session',
    label: 'Session test',
    execute: async (ctx: ExecutionContext) => {
      received.push({ sessionParams: ctx.runtime.sessionParams, taskId: ctx.context.taskId ?? null });
      const n = typeof ctx.runtime.sessionParams?.n === 'number' ? ctx.runtime.sessionParams.n : 0;
      return { exitCode: 0, timedOut: false, sessionParams: { n: n + 1 } };
    },
  });
  adapters.register({
    ...base,
    type: 'test_error_result',
    label: 'Exit 0 with an error result',
    execute: async () => ({ exitCode: 0, timedOut: false, errorCode: 'agent_error', errorMessage: 'the model refused' }),
  });
  t = await startCore({ adapters });
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

async function createAgentOf(type: string) {
  const res = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: type, adapterType: type, adapterConfig: {} } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Invokes and waits for the new run to end. */
async function heartbeat(agentId: string, issueId?: string): Promise<any> {
  const known = new Set(((await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items as any[]).map((r) => r.id));
  expect((await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: issueId ? { issueId } : {} })).status).toBe(202);
  const run = await eventually(async () => ((await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items as any[]).find((r) => !known.has(r.id)), 5000, 'the run');
  return waitForRunId(t, run.id);
}

describe('adapter sessions', () => {
  it('stores the session an adapter returns and hands it back on the next run of the same task', async () => {
    const agent = await createAgentOf('test_session');
    const runs = [await heartbeat(agent.id), await heartbeat(agent.id), await heartbeat(agent.id)];
    expect(runs.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(runs.map((r) => r.sessionParams)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(received.map((r) => r.sessionParams)).toEqual([null, { n: 1 }, { n: 2 }]);

    // Sessions are kept per task: a run focused on an issue starts its own.
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Focused', status: 'todo' } })).body;
    const focused = [await heartbeat(agent.id, issue.id), await heartbeat(agent.id, issue.id)];
    expect(focused.map((r) => r.sessionParams)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(received.slice(3)).toEqual([
      { sessionParams: null, taskId: issue.identifier },
      { sessionParams: { n: 1 }, taskId: issue.identifier },
    ]);
    expect((await heartbeat(agent.id)).sessionParams).toEqual({ n: 4 });
  });

  it('a run that exits 0 with an error result is failed', async () => {
    const agent = await createAgentOf('test_error_result');
    const run = await heartbeat(agent.id);
    expect(run).toMatchObject({ status: 'failed', exitCode: 0, errorCode: 'agent_error', errorMessage: 'the model refused' });
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('error');
  });
});
