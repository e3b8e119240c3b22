import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../../helpers/core.js';
import { companyWithAgent, createRoutine, firings, HOUR, manualClock, routineCore, tick } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** Moves the clock in steps up to `until`, ticking the scheduler at each step. */
function stepThrough(core: TestCore, clock: ReturnType<typeof manualClock>, until: string, stepMs: number): void {
  while (clock.now().getTime() + stepMs <= Date.parse(until)) {
    clock.advance(stepMs);
    tick(core);
    // A second pass at the same instant must find nothing new.
    tick(core);
  }
}

const created = (fs: any[]) => fs.filter((f) => f.outcome === 'issue_created');

describe('schedule triggers in Europe/Berlin', () => {
  it('0 9 * * 1-5 fires once per weekday slot across the spring DST change', async () => {
    const clock = manualClock('2026-03-23T00:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Triage {{date}}', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' }, concurrency: 'always' });
    expect(r.nextFireTimes[0]).toBe('2026-03-23T08:00:00.000Z');
    stepThrough(t, clock, '2026-04-04T00:00:00.000Z', HOUR);
    const fs = created(await firings(t, r.id)).reverse();
    // Mon 23 .. Fri 27 at 08:00Z (CET), clocks go forward Sun 29, Mon 30 .. Fri 3 at 07:00Z (CEST).
    expect(fs.map((f) => f.slotAt)).toEqual([
      ...['23', '24', '25', '26', '27'].map((d) => `2026-03-${d}T08:00:00.000Z`),
      ...['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02', '2026-04-03'].map((d) => `${d}T07:00:00.000Z`),
    ]);
    expect(fs.every((f) => f.slotKey.endsWith('T09:00') && f.trigger === 'schedule')).toBe(true);
    expect((await firings(t, r.id)).length).toBe(10);
    const issues = await t.api('GET', `/api/companies/${companyId}/issues?limit=200`);
    expect(issues.body.items.map((i: any) => i.title).sort()).toEqual(fs.map((f) => `Triage ${f.slotKey.slice(0, 10)}`).sort());
  });

  it('0 9 * * 1-5 fires once per weekday slot across the autumn DST change', async () => {
    const clock = manualClock('2026-10-19T00:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Triage', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' }, concurrency: 'always' });
    stepThrough(t, clock, '2026-10-31T00:00:00.000Z', HOUR);
    const fs = created(await firings(t, r.id)).reverse();
    expect(fs.map((f) => f.slotAt)).toEqual([
      ...['19', '20', '21', '22', '23'].map((d) => `2026-10-${d}T07:00:00.000Z`),
      ...['26', '27', '28', '29', '30'].map((d) => `2026-10-${d}T08:00:00.000Z`),
    ]);
  });

  it('a local time that does not exist is skipped, an ambiguous one fires once', async () => {
    const clock = manualClock('2026-03-27T12:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Night job', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '30 2 * * *', timezone: 'Europe/Berlin' }, concurrency: 'always' });
    stepThrough(t, clock, '2026-03-31T12:00:00.000Z', 15 * 60_000);
    expect(created(await firings(t, r.id)).map((f) => f.slotKey).reverse()).toEqual(['2026-03-28T02:30', '2026-03-30T02:30', '2026-03-31T02:30']);

    clock.set('2026-10-23T12:00:00.000Z');
    await t.api('PATCH', `/api/routines/${r.id}`, { body: { enabled: false } });
    await t.api('PATCH', `/api/routines/${r.id}`, { body: { enabled: true } });
    stepThrough(t, clock, '2026-10-26T12:00:00.000Z', 15 * 60_000);
    const autumn = created(await firings(t, r.id)).filter((f) => f.slotKey >= '2026-10');
    // 02:30 happens twice on Oct 25 (CEST then CET): one firing, at the first.
    expect(autumn.map((f) => [f.slotKey, f.slotAt]).reverse()).toEqual([
      ['2026-10-24T02:30', '2026-10-24T00:30:00.000Z'],
      ['2026-10-25T02:30', '2026-10-25T00:30:00.000Z'],
      ['2026-10-26T02:30', '2026-10-26T01:30:00.000Z'],
    ]);
  });

  it('a clock set back does not fire a slot again', async () => {
    const clock = manualClock('2026-05-04T06:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'Europe/Berlin' }, concurrency: 'always' });
    stepThrough(t, clock, '2026-05-04T08:00:00.000Z', HOUR);
    expect(created(await firings(t, r.id))).toHaveLength(1);
    clock.set('2026-05-04T06:00:00.000Z');
    stepThrough(t, clock, '2026-05-04T08:00:00.000Z', HOUR);
    expect(await firings(t, r.id)).toHaveLength(1);
  });

  it('a paused routine fires nothing; on resume it picks up from now, not the slots it was paused for', async () => {
    const clock = manualClock('2026-05-04T06:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'Hourly', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 * * * *', timezone: 'UTC' }, catchUp: 'all', concurrency: 'always' });
    const paused = await t.api('PATCH', `/api/routines/${r.id}`, { body: { enabled: false } });
    expect(paused.body).toMatchObject({ enabled: false, nextFireTimes: [] });
    stepThrough(t, clock, '2026-05-04T10:00:00.000Z', HOUR);
    expect(await firings(t, r.id)).toEqual([]);
    await t.api('PATCH', `/api/routines/${r.id}`, { body: { enabled: true } });
    stepThrough(t, clock, '2026-05-04T11:00:00.000Z', HOUR);
    expect((await firings(t, r.id)).map((f) => [f.slotKey, f.trigger])).toEqual([['2026-05-04T11:00', 'schedule']]);
    const actions = (await t.api('GET', `/api/companies/${companyId}/activity?limit=50`)).body.items.map((a: any) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['routine.paused', 'routine.resumed', 'routine.fired']));
  });

  it('refuses a cron without five fields and an unknown timezone, writing nothing', async () => {
    const clock = manualClock('2026-05-04T06:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const before = t.snapshot();
    const sixFields = await t.api('POST', `/api/companies/${companyId}/routines`, { body: { title: 'x', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 0 9 * * 1-5', timezone: 'UTC' } } });
    expect(sixFields.status).toBe(400);
    expect(sixFields.body.code).toBe('invalid_trigger');
    const badTz = await t.api('POST', `/api/companies/${companyId}/routines`, { body: { title: 'x', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * 1-5', timezone: 'Mars/Base' } } });
    expect(badTz.status).toBe(400);
    expect(badTz.body.error).toMatch(/timezone/);
    expect(t.snapshot()).toEqual(before);
  });
});
