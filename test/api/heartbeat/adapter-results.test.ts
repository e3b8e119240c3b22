import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ExecutionContext, ExecutionResult } from '@service/adapter-utils';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { readLog, sleep, waitForRun } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A core with one scripted adapter type whose results the test decides per call. */
async function coreWith(script: (ctx: ExecutionContext, call: number) => ExecutionResult | Promise<ExecutionResult>) {
  const calls: ExecutionContext[] = [];
  const adapters = createBuiltinRegistry();
  adapters.register({
    type: 'scripted',
    label: 'Scripted',
    models: [],
    agentConfigurationDoc: '',
    configSchema: z.object({}).passthrough(),
    execute: async (ctx) => {
      calls.push(ctx);
      return script(ctx, calls.length);
    },
    testEnvironment: async () => ({ adapterType: 'scripted', status: 'pass', checks: [], testedAt: new Date().toISOString() }),
  });
  t = await startCore({ adapters });
  const company = await createCompany(t);
  const agent = await createAgent(t, company, { adapterType: 'scripted', adapterConfig: {} });
  const invoke = async () => {
    const res = await t!.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    expect(res.status).toBe(202);
  };
  const runs = async () => (await t!.api('GET', `/api/companies/${company}/heartbeat-runs?agentId=${agent.id}`)).body.items as any[];
  return { calls, company, agent, invoke, runs, db: t.core.database.sqlite };
}

describe('an unknown session', () => {
  it('is cleared and retried once with a fresh session inside the same run', async () => {
    const c = await coreWith((ctx, call) => {
      if (call === 1) return { exitCode: 0, timedOut: false, sessionParams: { sessionId: 'old' } };
      if (ctx.runtime.sessionParams) return { exitCode: 0, timedOut: false, errorCode: 'unknown_session', errorMessage: 'No conversation found with session ID: old' };
      return { exitCode: 0, timedOut: false, sessionParams: { sessionId: 'new' }, summary: 'done fresh' };
    });
    await c.invoke();
    await waitForRun(t!, c.company, c.agent.id);
    await c.invoke();
    const second = await waitForRun(t!, c.company, c.agent.id, (r) => r.summary === 'done fresh');
    expect(c.calls.map((x) => x.runtime.sessionParams)).toEqual([null, { sessionId: 'old' }, null]);
    expect(c.calls[1]!.runId).toBe(c.calls[2]!.runId);
    expect(second).toMatchObject({ status: 'succeeded', errorCode: null, sessionParams: { sessionId: 'new' } });
    expect(c.db.prepare('SELECT params FROM agent_sessions').all()).toEqual([{ params: JSON.stringify({ sessionId: 'new' }) }]);
    const log = (await readLog(t!, second.id)).map((r) => r.data).join('');
    expect(log).toContain('retrying once with a fresh session');
    // Every run gets the product's heartbeat skill to install.
    expect(c.calls[0]!.runtime.skills?.[0]).toMatchObject({ name: 'headcount-heartbeat', markdown: expect.stringContaining('# Headcount heartbeat skill') });
  });

  it('is retried only once, and the run fails with unknown_session and no stored session', async () => {
    const c = await coreWith((_ctx, call) =>
      call === 1 ? { exitCode: 0, timedOut: false, sessionParams: { sessionId: 'old' } } : { exitCode: 1, timedOut: false, errorCode: 'unknown_session', errorMessage: 'gone' },
    );
    await c.invoke();
    await waitForRun(t!, c.company, c.agent.id);
    await c.invoke();
    const failed = await waitForRun(t!, c.company, c.agent.id, (r) => r.status === 'failed');
    expect(c.calls).toHaveLength(3);
    expect(failed.errorCode).toBe('unknown_session');
    expect(c.db.prepare('SELECT count(*) AS n FROM agent_sessions').get()).toEqual({ n: 0 });
  });
});

describe('a rate limit with a reset time', () => {
  it('holds the agent’s wakes until the reset, then runs', async () => {
    let resetAt = '';
    const c = await coreWith((_ctx, call) => {
      if (call === 1) {
        resetAt = new Date(Date.now() + 2500).toISOString();
        return { exitCode: 1, timedOut: false, errorCode: 'rate_limited', errorMessage: 'usage limit reached', rateLimitResetAt: resetAt };
      }
      return { exitCode: 0, timedOut: false };
    });
    await c.invoke();
    const limited = await waitForRun(t!, c.company, c.agent.id);
    expect(limited).toMatchObject({ status: 'failed', errorCode: 'rate_limited', rateLimitResetAt: resetAt });
    await c.invoke();
    await sleep(1200);
    // Still before the reset: the wake waits (not skipped), no second run.
    expect((await c.runs()).length).toBe(1);
    expect(c.db.prepare('SELECT status FROM wake_requests ORDER BY created_at DESC LIMIT 1').get()).toEqual({ status: 'pending' });
    const next = await waitForRun(t!, c.company, c.agent.id, (r) => r.status === 'succeeded', 10_000);
    expect(Date.parse(next.startedAt)).toBeGreaterThanOrEqual(Date.parse(resetAt));
  });
});

describe('usage and cost', () => {
  it('records unpriced usage on the run without a cost event, priced usage with one', async () => {
    const c = await coreWith((_ctx, call) =>
      call === 1
        ? { exitCode: 0, timedOut: false, usage: { provider: 'local', model: 'mystery-1', inputTokens: 10, outputTokens: 5, cachedInputTokens: 2, costCents: null, costStatus: 'unpriced' } }
        : { exitCode: 0, timedOut: false, usage: { provider: 'anthropic', model: 'claude-haiku-4-5', inputTokens: 10, outputTokens: 5, cachedInputTokens: 0, costCents: 0.0035, costStatus: 'priced' } },
    );
    await c.invoke();
    const unpriced = await waitForRun(t!, c.company, c.agent.id);
    expect(unpriced).toMatchObject({ status: 'succeeded', costCents: null, costStatus: 'unpriced', usage: { model: 'mystery-1', inputTokens: 10, cachedInputTokens: 2, costStatus: 'unpriced' } });
    expect(c.db.prepare('SELECT count(*) AS n FROM cost_events').get()).toEqual({ n: 0 });
    await c.invoke();
    const priced = await waitForRun(t!, c.company, c.agent.id, (r) => r.costStatus === 'priced');
    expect(priced.costCents).toBe(0.0035);
    expect(c.db.prepare('SELECT run_id, cost_micro_cents FROM cost_events').all()).toEqual([{ run_id: priced.id, cost_micro_cents: 3500 }]);
  });
});

describe('CLI error classes', () => {
  it('fail the run with their code, hint and summary even on exit 0', async () => {
    const c = await coreWith((_ctx, call) =>
      call === 1
        ? { exitCode: 0, timedOut: false, errorCode: 'login_required', errorMessage: 'Invalid API key · Please run /login', errorHint: 'Run claude and /login' }
        : { exitCode: 0, timedOut: false, errorCode: 'max_turns', errorMessage: 'Reached maximum number of turns (3)', summary: 'partial work' },
    );
    await c.invoke();
    expect(await waitForRun(t!, c.company, c.agent.id)).toMatchObject({ status: 'failed', errorCode: 'login_required', errorHint: 'Run claude and /login' });
    await c.invoke();
    expect(await waitForRun(t!, c.company, c.agent.id, (r) => r.errorCode === 'max_turns')).toMatchObject({ status: 'failed', summary: 'partial work' });
  });
});

describe('company skills', () => {
  it('adds the brand-voice self-check skill once the company has a brand-voice checker', async () => {
    const c = await coreWith(() => ({ exitCode: 0, timedOut: false }));
    await c.invoke();
    await waitForRun(t!, c.company, c.agent.id);
    expect(c.calls[0]!.runtime.skills?.map((s) => s.name)).toEqual(['headcount-heartbeat']);

    const configured = await t!.api('PUT', `/api/companies/${c.company}/crm/brand-voice/settings`, {
      body: { endpointUrl: 'http://127.0.0.1:9/v1/chat/completions', model: 'voice-checker', guidelines: 'Plain words, no hype.' },
    });
    expect(configured.status).toBe(200);
    await c.invoke();
    await waitForRun(t!, c.company, c.agent.id, (r) => r.id !== c.calls[0]!.runId && !['queued', 'running'].includes(r.status));
    const skills = c.calls[1]!.runtime.skills!;
    expect(skills.map((s) => s.name)).toEqual(['headcount-heartbeat', 'headcount-brand-voice']);
    expect(skills[1]!.markdown).toContain('brand');
  });
});
