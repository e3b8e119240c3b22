import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, eventually, waitForRun } from '../heartbeat/helpers.js';
import { createIssue, rows } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a blocker chain worked through by agents', () => {
  it('A → B → C: each runs after its blocker is done, with exactly one wake per unblock', async () => {
    t = await startCore({ routines: false, sequences: false });
    const companyId = await createCompany(t);
    const [x, y, z] = [await createFakeAgent(t, companyId, 'Xavier'), await createFakeAgent(t, companyId, 'Yara'), await createFakeAgent(t, companyId, 'Zed')];
    const a = await createIssue(t, companyId, { title: 'A', status: 'todo' });
    const b = await createIssue(t, companyId, { title: 'B', status: 'todo' });
    const c = await createIssue(t, companyId, { title: 'C', status: 'todo' });
    expect((await t.api('POST', `/api/issues/${b.id}/blockers`, { body: { blockerIssueId: a.id } })).status).toBe(200);
    expect((await t.api('POST', `/api/issues/${c.id}/blockers`, { body: { blockerIssueId: b.id } })).status).toBe(200);
    // Assign the last first: nobody may start C or B before their blockers are done.
    for (const [issue, agent] of [[c, z], [b, y], [a, x]] as const) {
      expect((await t.api('PATCH', `/api/issues/${issue.id}`, { body: { assigneeAgentId: agent.id } })).status).toBe(200);
    }
    await eventually(async () => ((await t!.api('GET', `/api/issues/${c.id}`)).body.status === 'done' ? true : undefined), 45_000, 'C done');

    const done = await Promise.all([a, b, c].map(async (i) => (await t!.api('GET', `/api/issues/${i.id}`)).body.completed_at as string));
    expect([...done].sort()).toEqual(done);
    for (const agent of [x, y, z]) {
      const run = await waitForRun(t, companyId, agent.id);
      expect(run.status).toBe('succeeded');
      const runs = (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items;
      expect(runs).toHaveLength(1);
    }
    // One wake each for B and C (the unblock), none skipped or duplicated.
    for (const issue of [b, c]) {
      expect(rows(t, 'SELECT reason, status FROM wake_requests WHERE issue_id = ?', issue.id)).toEqual([{ reason: 'assignment', status: 'consumed' }]);
    }
    const unblocked = (await t.api('GET', `/api/companies/${companyId}/activity?limit=200`)).body.items.filter((e: any) => e.action === 'issue.unblocked').map((e: any) => e.summary);
    expect(unblocked.sort()).toEqual([`${b.identifier} is unblocked: ${a.identifier} is done; its assignee is woken`, `${c.identifier} is unblocked: ${b.identifier} is done; its assignee is woken`].sort());
  }, 60_000);
});
