import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../../helpers/core.js';
import { companyWithAgent, createRoutine, firings, HOUR, manualClock, routineCore, tick } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * An hourly routine, on time once, then the laptop sleeps for three days (72 slots missed) and
 * wakes at 10:20 (the 10:00 slot is also past the 5-minute grace), then runs on normally.
 */
async function sleepThreeDays(catchUp: 'skip' | 'once' | 'all') {
  const clock = manualClock('2026-06-01T08:00:00.000Z');
  t = await routineCore(clock);
  const { companyId, agentId } = await companyWithAgent(t);
  const r = await createRoutine(t, companyId, { title: 'Hourly {{slot}}', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 * * * *', timezone: 'UTC' }, catchUp, concurrency: 'always' });
  clock.set('2026-06-01T09:00:00.000Z');
  tick(t);
  clock.set('2026-06-04T09:20:00.000Z');
  tick(t);
  const afterWake = await firings(t, r.id);
  clock.set('2026-06-04T10:00:00.000Z');
  tick(t);
  const all = await firings(t, r.id);
  const activity = await t.api('GET', `/api/companies/${companyId}/activity?limit=200`);
  return { r, afterWake, all, companyId, activity: activity.body.items as any[] };
}

const count = (fs: any[], pred: (f: any) => boolean) => fs.filter(pred).length;

describe('catch-up after a 3-day sleep', () => {
  it('skip: every missed slot is recorded as skipped, none fires; the next slot fires', async () => {
    const { afterWake, all, activity } = await sleepThreeDays('skip');
    // 10:00 on day 1 through 09:00 on day 4: 72 slots.
    expect(afterWake).toHaveLength(73);
    expect(count(afterWake, (f) => f.outcome === 'skipped_missed')).toBe(72);
    expect(count(afterWake, (f) => f.outcome === 'issue_created')).toBe(1);
    expect(all[0]).toMatchObject({ slotAt: '2026-06-04T10:00:00.000Z', trigger: 'schedule', outcome: 'issue_created' });
    expect(activity.find((a) => a.action === 'routine.slots_missed')?.summary).toMatch(/missed 72 slots.*catchUp: skip/);
  });

  it('once: one catch-up firing for all missed slots', async () => {
    const { afterWake } = await sleepThreeDays('once');
    const fired = afterWake.filter((f) => f.outcome === 'issue_created');
    expect(fired).toHaveLength(2);
    expect(fired[0]).toMatchObject({ trigger: 'catch_up', slotAt: '2026-06-04T09:00:00.000Z', reason: 'catches up 72 missed slots' });
    expect(count(afterWake, (f) => f.outcome === 'skipped_missed')).toBe(71);
  });

  it('all: each missed slot, capped at the latest 10', async () => {
    const { afterWake, all, companyId } = await sleepThreeDays('all');
    const caught = afterWake.filter((f) => f.trigger === 'catch_up');
    expect(caught).toHaveLength(10);
    expect(caught.every((f) => f.outcome === 'issue_created')).toBe(true);
    expect(caught.map((f) => f.slotAt).sort()[0]).toBe('2026-06-04T00:00:00.000Z');
    expect(count(afterWake, (f) => f.outcome === 'skipped_missed')).toBe(62);
    expect(count(all, (f) => f.outcome === 'issue_created')).toBe(12);
    const issues = await t!.api('GET', `/api/companies/${companyId}/issues?limit=200`);
    expect(issues.body.items).toHaveLength(12);
  });

  it('a slot found within the grace period is on time, not missed', async () => {
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Hourly', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 * * * *', timezone: 'UTC' }, catchUp: 'skip' });
    clock.set('2026-06-01T09:04:00.000Z');
    tick(t);
    expect(await firings(t, r.id)).toMatchObject([{ trigger: 'schedule', outcome: 'issue_created' }]);
    void HOUR;
  });
});

describe('concurrency', () => {
  it('skip_if_open: no new issue while the last one is open; recorded; fires again once it is done', async () => {
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Hourly', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 * * * *', timezone: 'UTC' } });
    expect(r.concurrency).toBe('skip_if_open');
    clock.set('2026-06-01T09:00:00.000Z');
    tick(t);
    clock.set('2026-06-01T10:00:00.000Z');
    tick(t);
    let fs = await firings(t, r.id);
    expect(fs[0]).toMatchObject({ outcome: 'skipped_open_issue', issueId: null });
    expect(fs[0].reason).toMatch(/is still todo/);
    await t.api('PATCH', `/api/issues/${fs[1].issueId}`, { body: { status: 'done' } });
    clock.set('2026-06-01T11:00:00.000Z');
    tick(t);
    fs = await firings(t, r.id);
    expect(fs[0]).toMatchObject({ outcome: 'issue_created' });
  });
});
