import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, waitForRun } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// The engine's tick is set to an hour: every run below can only have started because the wake that
// asked for it poked the engine when its transaction committed.
const HOUR = 3_600_000;

describe('a wake starts its run at once, not at the next tick', () => {
  it('an issue assigned to an agent starts its run', async () => {
    t = await startCore({ heartbeatTickMs: HOUR });
    const companyId = await createCompany(t);
    const agent = await createFakeAgent(t, companyId, 'Builder');
    const created = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Wire the pump', status: 'todo' } });
    expect(created.status).toBe(201);
    expect((await t.api('PATCH', `/api/issues/${created.body.id}`, { body: { assigneeAgentId: agent.id } })).status).toBe(200);
    const run = await waitForRun(t, companyId, agent.id, (r) => r.status === 'succeeded', 15_000);
    expect(run.trigger).toBe('assignment');
  });

  it('a mention in a comment starts the mentioned agent\'s run', async () => {
    t = await startCore({ heartbeatTickMs: HOUR });
    const companyId = await createCompany(t);
    const agent = await createFakeAgent(t, companyId, 'Reviewer');
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Read this', status: 'todo' } })).body;
    expect((await t.api('POST', `/api/issues/${issue.id}/comments`, { body: { body: `@${agent.urlKey} please look` } })).status).toBe(201);
    const run = await waitForRun(t, companyId, agent.id, (r) => r.status === 'succeeded', 15_000);
    expect(run.trigger).toBe('mention');
  });
});
