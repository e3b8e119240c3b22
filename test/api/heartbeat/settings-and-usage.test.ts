import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createBuiltinRegistry } from '../../../adapters/registry.js';
import { waitForRun } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('instance settings', () => {
  it('reads and changes the concurrent-run cap, board only', async () => {
    t = await startCore();
    // Retention settings live beside the cap (test/reliability/retention.test.ts covers them).
    // So do the limits (test/api/limits/attachments.test.ts covers them).
    const retention = { transcriptRetentionDays: 30, backupRetentionCount: 5, workspaceRetentionHours: 24, limits: expect.objectContaining({ transcriptMaxBytes: 50 * 1024 * 1024 }) };
    expect((await t.api('GET', '/api/settings')).body).toEqual({ maxConcurrentRuns: 4, ...retention });
    expect((await t.api('PUT', '/api/settings', { body: { maxConcurrentRuns: 2 } })).body).toEqual({ maxConcurrentRuns: 2, ...retention });
    expect((await t.api('GET', '/api/settings')).body).toEqual({ maxConcurrentRuns: 2, ...retention });
    expect((await t.api('PUT', '/api/settings', { body: { maxConcurrentRuns: 0 } })).status).toBe(400);
    // An empty change answers the settings as they are; several at once are saved together.
    expect((await t.api('PUT', '/api/settings', { body: {} })).body).toEqual({ maxConcurrentRuns: 2, ...retention });
    const both = await t.api('PUT', '/api/settings', { body: { maxConcurrentRuns: 3, transcriptRetentionDays: 10, limits: { commentsPerMinute: 9 } } });
    expect(both.body).toMatchObject({ maxConcurrentRuns: 3, transcriptRetentionDays: 10, limits: { commentsPerMinute: 9 } });
    expect((await t.api('GET', '/api/settings')).body).toEqual(both.body);
    const company = await createCompany(t);
    const key = await createAgentKey(t, (await createAgent(t, company)).id);
    expect((await t.api('GET', '/api/settings', { token: key })).status).toBe(403);
    expect((await t.api('PUT', '/api/settings', { token: key, body: { maxConcurrentRuns: 9 } })).status).toBe(403);
  });
});

describe('usage reported by an adapter', () => {
  it('is recorded on the run and as exactly one cost event', async () => {
    const adapters = createBuiltinRegistry();
    adapters.register({
      type: 'test_usage',
      label: 'Usage',
      models: [],
      agentConfigurationDoc: '',
      configSchema: z.object({}).passthrough(),
      execute: async () => ({ exitCode: 0, timedOut: false, usage: { provider: 'acme', model: 'm1', inputTokens: 10, outputTokens: 5, costCents: 0.1234 } }),
      testEnvironment: async () => ({ adapterType: 'test', status: 'pass' as const, checks: [], testedAt: new Date().toISOString() }),
    });
    t = await startCore({ adapters });
    const company = await createCompany(t);
    const agent = await createAgent(t, company, { adapterType: 'test_usage', adapterConfig: {} });
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`);
    const run = await waitForRun(t, company, agent.id);
    expect(run).toMatchObject({ status: 'succeeded', costCents: 0.1234, usage: { provider: 'acme', inputTokens: 10 } });
    const events = t.core.database.sqlite.prepare('SELECT run_id, cost_micro_cents FROM cost_events').all();
    expect(events).toEqual([{ run_id: run.id, cost_micro_cents: 123_400 }]);
  });
});
