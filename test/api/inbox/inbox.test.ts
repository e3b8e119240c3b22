import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { createAgent, createAgentKey, createCompany, startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, waitForRun } from '../heartbeat/helpers.js';
import { createIssue } from '../issues/helpers.js';
import { post, suggestTasks, act } from '../issues/interactions/helpers.js';
import { strategy } from '../approvals/helpers.js';
import { manualClock } from '../routines/helpers.js';

let t: TestCore | undefined;
let home: string | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

const inbox = async (companyId: string) => {
  const res = await t!.api('GET', `/api/companies/${companyId}/inbox`);
  expect(res.status).toBe(200);
  expect(res.body.count).toBe(res.body.items.length);
  return res.body.items as any[];
};

/** A core on a manual clock with no background work, one company, and its CEO with a key (the caller narrows `t` to it). */
async function companyWithCeo() {
  const clock = manualClock('2026-06-01T08:00:00.000Z');
  const core = await startCore({ clock, heartbeats: false, routines: false, sequences: false });
  t = core; // closed by afterEach even if the setup below fails
  const companyId = await createCompany(core);
  const ceo = await createAgent(core, companyId, { name: 'Ceo' });
  const key = await createAgentKey(core, ceo.id);
  return { core, clock, companyId, ceo, key };
}

describe('the inbox', () => {
  it('lists approvals, interactions and long-blocked issues newest first, with links and actions; they vanish when resolved', async () => {
    const { core, clock, companyId, ceo, key } = await companyWithCeo();
    t = core;
    const approval = await t.api('POST', `/api/companies/${companyId}/approvals`, { token: key, body: { type: 'approve_ceo_strategy', requestedByAgentId: ceo.id, payload: strategy() } });
    expect(approval.status).toBe(201);
    clock.advance(60_000);
    const issue = await createIssue(t, companyId, { title: 'Plan' });
    const interaction = await post(t, issue.id, suggestTasks([{ clientKey: 'a', title: 'A' }]), key);
    clock.advance(60_000);
    const blocker = await createIssue(t, companyId, { title: 'Blocker' });
    const waiting = await createIssue(t, companyId, { title: 'Waiting' });
    await t.api('POST', `/api/issues/${waiting.id}/blockers`, { body: { blockerIssueId: blocker.id } });

    let items = await inbox(companyId);
    expect(items.map((i) => i.kind)).toEqual(['interaction', 'approval']);
    expect(items[0]).toMatchObject({ id: `interaction:${interaction.id}`, link: { type: 'issue', path: `/issues/${issue.identifier}` }, actions: ['accept', 'reject', 'dismiss'] });
    expect(items[1]).toMatchObject({ id: `approval:${approval.body.id}`, link: { type: 'approval', id: approval.body.id }, actions: ['approve', 'reject', 'dismiss'] });

    // A day later the blocked issue needs the founder too.
    clock.advance(25 * 3600_000);
    items = await inbox(companyId);
    expect(items[0]).toMatchObject({ kind: 'issue_blocked', id: `issue_blocked:${waiting.id}`, link: { path: `/issues/${waiting.identifier}` } });

    // Resolved elsewhere: gone.
    expect((await t.api('POST', `/api/approvals/${approval.body.id}/approve`, { body: {} })).status).toBe(200);
    expect((await act(t, issue.id, interaction.id, 'reject', {})).status).toBe(200);
    await t.api('PATCH', `/api/issues/${blocker.id}`, { body: { status: 'done' } });
    expect(await inbox(companyId)).toEqual([]);
  });

  it('a failed run is listed with retry until a later run succeeds', async () => {
    t = await startCore({ routines: false, sequences: false });
    const companyId = await createCompany(t);
    const agent = await createFakeAgent(t, companyId, 'Fay', { FAKE_MODE: 'fail' });
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    const failed = await waitForRun(t, companyId, agent.id);
    expect(failed.status).toBe('failed');
    expect((await inbox(companyId))[0]).toMatchObject({ kind: 'run_failed', id: `run_failed:${failed.id}`, actions: ['retry', 'open', 'dismiss'], refs: { agentId: agent.id, runId: failed.id } });
    const patched = await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { ...agent.adapterConfig, env: { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '10' } } } });
    expect(patched.status, patched.text).toBe(200);
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    await waitForRun(t, companyId, agent.id, (r) => r.status === 'succeeded');
    expect(await inbox(companyId)).toEqual([]);
  });

  it('dismiss persists across a restart; unknown items are 404; agents cannot read the inbox', async () => {
    home = tempHome();
    t = await startCore({ home, heartbeats: false, routines: false, sequences: false });
    const companyId = await createCompany(t);
    const ceo = await createAgent(t, companyId, { name: 'Ceo' });
    const key = await createAgentKey(t, ceo.id);
    const approval = await t.api('POST', `/api/companies/${companyId}/approvals`, { token: key, body: { type: 'approve_ceo_strategy', requestedByAgentId: ceo.id, payload: strategy() } });
    const itemId = `approval:${approval.body.id}`;
    expect((await t.api('GET', `/api/companies/${companyId}/inbox`, { token: key })).status).toBe(403);
    expect((await t.api('POST', `/api/companies/${companyId}/inbox/approval:nope/dismiss`)).status).toBe(404);
    expect((await t.api('POST', `/api/companies/${companyId}/inbox/${itemId}/dismiss`)).status).toBe(204);
    expect(await inbox(companyId)).toEqual([]);
    await t.close();
    t = await startCore({ home, heartbeats: false, routines: false, sequences: false });
    expect(await inbox(companyId)).toEqual([]);
    const activity = (await t.api('GET', `/api/companies/${companyId}/activity?limit=50`)).body.items;
    expect(activity.find((a: any) => a.action === 'inbox.dismissed')?.entityId).toBe(itemId);
  });
});

describe('budget items', () => {
  it('a budget warning and a stop of this month are listed; next month they are gone', async () => {
    const clock = manualClock('2026-06-10T08:00:00.000Z');
    t = await startCore({ clock, heartbeats: false, routines: false, sequences: false });
    const companyId = (await t.api('POST', '/api/companies', { body: { name: 'Acme', budgetMonthlyCents: 1000 } })).body.id;
    const agent = await createAgent(t, companyId);
    const cost = (cents: number) => t!.api('POST', `/api/companies/${companyId}/cost-events`, { body: { agentId: agent.id, provider: 'p', model: 'm', inputTokens: 1, outputTokens: 1, costCents: cents } });
    expect((await cost(850)).status).toBe(201);
    let items = await inbox(companyId);
    expect(items.map((i) => i.kind)).toEqual(['budget_warning']);
    expect(items[0]).toMatchObject({ title: 'Company budget at 80%', link: { path: '/costs' }, actions: ['open', 'dismiss'] });
    clock.advance(60_000);
    await cost(200);
    items = await inbox(companyId);
    expect(items.map((i) => i.kind)).toEqual(['budget_stop', 'budget_warning']);
    clock.set('2026-07-01T00:00:01.000Z');
    expect(await inbox(companyId)).toEqual([]);
  });
});

describe('CRM drafts', () => {
  it('a draft waiting for approval is listed with approve and reject until it is decided', async () => {
    const { crmWorld, createOutbox, allow, rule, send } = await import('../crm/helpers.js');
    const w = await crmWorld({ core: { routines: false, sequences: false } });
    t = w.t;
    await allow(w, 'handle', 'lead');
    await rule(w, { name: 'everything waits', action: 'queue_for_manual', priority: 10 });
    const dry = await createOutbox(w, { channel: 'dry-run' });
    const draft = await send(w, { channel: 'dry-run', outboxId: dry.id, to: 'lead', payload: { text: 'hello' } });
    expect(draft.body.status).toBe('draft_pending_approval');
    const items = await inbox(w.companyId);
    expect(items).toMatchObject([{ id: `crm_draft:${draft.body.id}`, kind: 'crm_draft', actions: ['approve', 'reject', 'dismiss'], refs: { activityId: draft.body.id } }]);
    expect((await t.api('POST', `${w.base}/activities/${draft.body.id}/reject`, { body: {} })).status).toBe(200);
    expect(await inbox(w.companyId)).toEqual([]);
  });
});

describe('paging', () => {
  it('pages newest first with a cursor while count stays every open item; a foreign cursor or limit 0 is 400', async () => {
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    t = await startCore({ clock, heartbeats: false, routines: false, sequences: false });
    const companyId = await createCompany(t);
    for (let i = 0; i < 7; i++) {
      const issue = await createIssue(t, companyId, { title: `Waits ${i}`, status: 'blocked' });
      expect(issue.status).toBe('blocked');
      clock.advance(60_000);
    }
    clock.advance(25 * 3600_000);
    const whole = await t.api('GET', `/api/companies/${companyId}/inbox?limit=500`);
    expect(whole.body).toMatchObject({ count: 7, nextCursor: null });
    expect(whole.body.items).toHaveLength(7);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.api('GET', `/api/companies/${companyId}/inbox?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(7);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((i: any) => i.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(whole.body.items.map((i: any) => i.id));

    expect((await t.api('GET', `/api/companies/${companyId}/inbox?cursor=bm90LWEtY3Vyc29y`)).body.code).toBe('invalid_cursor');
    expect((await t.api('GET', `/api/companies/${companyId}/inbox?limit=0`)).status).toBe(400);
  });
  it('pages long-blocked issues from SQL merged with the other items: every open item once, in order, dismissed and deleted ones left out', async () => {
    const { core, clock, companyId, ceo, key } = await companyWithCeo();
    t = core;
    const stale: any[] = [];
    for (let i = 0; i < 24; i++) {
      // Every priority: the page merges one walk of the list index per priority.
      stale.push(await createIssue(t, companyId, { title: `Stale ${i}`, status: 'blocked', priority: (['critical', 'high', 'medium', 'low'] as const)[i % 4] }));
      // Two at a time share their minute: ties are ordered by id.
      if (i % 2) clock.advance(60_000);
      if (i === 11) {
        const approval = await t.api('POST', `/api/companies/${companyId}/approvals`, { token: key, body: { type: 'approve_ceo_strategy', requestedByAgentId: ceo.id, payload: strategy() } });
        expect(approval.status).toBe(201);
      }
    }
    // Waiting on an open blocker, and one of them also set to blocked: listed once, since its link.
    const blocker = await createIssue(t, companyId, { title: 'Blocker' });
    const onBlockers = [await createIssue(t, companyId, { title: 'Waits A' }), await createIssue(t, companyId, { title: 'Waits B', status: 'blocked' })];
    for (const w of onBlockers) expect((await t.api('POST', `/api/issues/${w.id}/blockers`, { body: { blockerIssueId: blocker.id } })).status).toBe(200);
    clock.advance(25 * 3600_000);
    expect((await t.api('DELETE', `/api/issues/${stale[3].id}`)).status).toBe(204);
    for (const gone of [stale[5], stale[6], onBlockers[1]]) {
      expect((await t.api('POST', `/api/companies/${companyId}/inbox/issue_blocked:${gone.id}/dismiss`)).status).toBe(204);
    }
    // Dismissed already: no longer an open item.
    expect((await t.api('POST', `/api/companies/${companyId}/inbox/issue_blocked:${stale[5].id}/dismiss`)).status).toBe(404);

    const whole = await t.api('GET', `/api/companies/${companyId}/inbox?limit=500`);
    const expected = [...stale.filter((_, i) => ![3, 5, 6].includes(i)), onBlockers[0]].map((i) => `issue_blocked:${i.id}`);
    const ids = whole.body.items.map((i: any) => i.id);
    expect(whole.body.count).toBe(expected.length + 1);
    expect(ids.filter((id: string) => id.startsWith('issue_blocked:')).sort()).toEqual(expected.sort());
    expect(ids.filter((id: string) => id.startsWith('approval:'))).toHaveLength(1);
    // Newest first, ties by id as text.
    for (let i = 1; i < whole.body.items.length; i++) {
      const [a, b] = [whole.body.items[i - 1], whole.body.items[i]];
      expect(a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id < b.id)).toBe(true);
    }
    expect(whole.body.items[0]).toMatchObject({ id: `issue_blocked:${onBlockers[0].id}`, title: `${onBlockers[0].identifier} blocked for more than a day`, summary: 'Waits A', link: { type: 'issue', id: onBlockers[0].id } });

    for (const limit of [1, 4, 7]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await t.api('GET', `/api/companies/${companyId}/inbox?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(expected.length + 1);
        expect(res.body.items.length).toBeLessThanOrEqual(limit);
        seen.push(...res.body.items.map((i: any) => i.id));
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(seen).toEqual(ids);
    }
  });
});
