import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { companyWithAgent, createRoutine, firings, manualClock, routineCore } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const hookPath = (url: string) => new URL(url).pathname;

describe('webhook trigger', () => {
  it('shows the token once, stores the body with the firing, rotates, and answers 404 to a wrong token', async () => {
    t = await routineCore(manualClock('2026-06-01T08:00:00.000Z'));
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Bug {{body.bug.id}}: {{body.bug.title}}', description: 'Reported at {{firedAt}}', assigneeAgentId: agentId, trigger: { kind: 'webhook' }, concurrency: 'always' });
    expect(r.webhookToken).toMatch(/^hcr_/);
    expect(r.webhookUrl).toBe(`${t.url}/api/routine-hooks/${r.webhookToken}`);
    const fetched = await t.api('GET', `/api/routines/${r.id}`);
    expect(fetched.body.hasWebhookToken).toBe(true);
    expect(fetched.text).not.toContain(r.webhookToken);
    expect((await t.api('GET', `/api/companies/${companyId}/routines`)).text).not.toContain(r.webhookToken);

    const fired = await t.api('POST', hookPath(r.webhookUrl), { token: null, body: { bug: { id: 42, title: 'Crash on save' } } });
    expect(fired.status).toBe(201);
    expect(fired.body).toMatchObject({ trigger: 'webhook', outcome: 'issue_created', payload: { bug: { id: 42, title: 'Crash on save' } } });
    const issue = await t.api('GET', `/api/issues/${fired.body.issueId}`);
    expect(issue.body).toMatchObject({ title: 'Bug 42: Crash on save', description: 'Reported at 2026-06-01T08:00:00.000Z', assigneeAgentId: agentId, status: 'todo' });
    expect((await firings(t, r.id))[0].payload).toEqual({ bug: { id: 42, title: 'Crash on save' } });

    const wrong = await t.api('POST', `/api/routine-hooks/hcr_${'x'.repeat(43)}`, { token: null, body: {} });
    expect(wrong.status).toBe(404);

    const rotated = await t.api('POST', `/api/routines/${r.id}/webhook-token`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.webhookToken).not.toBe(r.webhookToken);
    expect((await t.api('POST', hookPath(r.webhookUrl), { token: null, body: {} })).status).toBe(404);
    expect((await t.api('POST', hookPath(rotated.body.webhookUrl), { token: null, body: { bug: { id: 7 } } })).status).toBe(201);

    const activity = (await t.api('GET', `/api/companies/${companyId}/activity?limit=50`)).body.items.map((a: any) => a.action);
    expect(activity).toEqual(expect.arrayContaining(['routine.created', 'routine.fired', 'routine.webhook_rotated']));
    // The token never reaches the activity log.
    expect(JSON.stringify(activity)).not.toContain('hcr_');
  });

  it('a paused webhook routine answers 409 and records nothing', async () => {
    t = await routineCore(manualClock('2026-06-01T08:00:00.000Z'));
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Hook', assigneeAgentId: agentId, trigger: { kind: 'webhook' }, enabled: false });
    const res = await t.api('POST', hookPath(r.webhookUrl), { token: null, body: {} });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('routine_paused');
    expect(await firings(t, r.id)).toEqual([]);
  });
});

describe('api trigger', () => {
  it('the board and agents of the company may fire; another company\'s agent gets 404', async () => {
    t = await routineCore(manualClock('2026-06-01T08:00:00.000Z'));
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'On demand', assigneeAgentId: agentId, trigger: { kind: 'api' }, concurrency: 'always' });
    const byBoard = await t.api('POST', `/api/routines/${r.id}/fire`, { body: { why: 'now' } });
    expect(byBoard.status).toBe(201);
    expect(byBoard.body).toMatchObject({ trigger: 'api', outcome: 'issue_created', payload: { why: 'now' } });
    // The new issue wakes the routine's agent, through the heartbeat engine's stored wakes.
    const wakes = t.core.database.sqlite.prepare("SELECT agent_id, reason FROM wake_requests WHERE issue_id = ?").all(byBoard.body.issueId);
    expect(wakes).toEqual([{ agent_id: agentId, reason: 'assignment' }]);

    const colleague = await createAgent(t, companyId, { name: 'Bob' });
    const key = await createAgentKey(t, colleague.id);
    expect((await t.api('POST', `/api/routines/${r.id}/fire`, { token: key })).status).toBe(201);

    const other = await createCompany(t, 'Other');
    const stranger = await createAgent(t, other, { name: 'Eve' });
    const strangerKey = await createAgentKey(t, stranger.id);
    expect((await t.api('POST', `/api/routines/${r.id}/fire`, { token: strangerKey })).status).toBe(404);
    expect(await firings(t, r.id)).toHaveLength(2);
  });

  it('agents fire api routines only; the board may fire any routine by hand', async () => {
    t = await routineCore(manualClock('2026-06-01T08:00:00.000Z'));
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' } });
    expect(r.webhookToken).toBeNull();
    const key = await createAgentKey(t, agentId);
    const res = await t.api('POST', `/api/routines/${r.id}/fire`, { token: key });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('wrong_trigger');
    const byBoard = await t.api('POST', `/api/routines/${r.id}/fire`);
    expect(byBoard.status).toBe(201);
    expect(byBoard.body).toMatchObject({ trigger: 'api', outcome: 'issue_created', slotKey: null });
  });

  it('delete is soft: the routine is gone from lists, its firings and issues stay', async () => {
    t = await routineCore(manualClock('2026-06-01T08:00:00.000Z'));
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'On demand', assigneeAgentId: agentId, trigger: { kind: 'api' } });
    const fired = await t.api('POST', `/api/routines/${r.id}/fire`);
    expect((await t.api('DELETE', `/api/routines/${r.id}`)).status).toBe(204);
    expect((await t.api('GET', `/api/companies/${companyId}/routines`)).body).toEqual([]);
    expect((await t.api('GET', `/api/routines/${r.id}`)).status).toBe(404);
    expect((await t.api('GET', `/api/issues/${fired.body.issueId}`)).status).toBe(200);
    expect((t.core.database.sqlite.prepare('SELECT count(*) AS n FROM routine_firings WHERE routine_id = ?').get(r.id) as { n: number }).n).toBe(1);
  });
});
