import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, tempHome, type TestCore } from '../../helpers/core.js';
import { nextSendTime } from '../../../main/core/crm/sequences/window.js';
import { allow, createSecret, fakeApi, manualClock, outbox, rule, startCrmCore } from './helpers.js';

const ALWAYS = { weekdays: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00', tz: 'UTC' };

describe('sequences: scheduler through the one dispatcher', () => {
  let t: TestCore | undefined;
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    await t?.close();
    t = undefined;
    for (const c of cleanup.splice(0)) await c();
  });

  const activities = (core: TestCore) => core.core.database.sqlite.prepare("SELECT id, status, contact, attempts FROM crm_activities WHERE origin = 'sequence' ORDER BY created_at").all() as { id: string; status: string; contact: string; attempts: number }[];
  const enrollment = async (core: TestCore, companyId: string, id: string) => (await core.api('GET', `/api/companies/${companyId}/crm/enrollments/${id}`)).body;
  const tick = (core: TestCore) => core.core.services.crmSequenceScheduler.tick();

  async function dryRunSetup(core: TestCore, opts: { autoApprove?: boolean } = {}) {
    const companyId = await createCompany(core);
    const box = outbox(core, companyId, { channel: 'dry-run', name: 'Rehearsal' });
    allow(core, companyId, { kind: 'address', value: 'ann@example.com' });
    if (opts.autoApprove !== false) rule(core, companyId, { action: 'auto_approve', priority: 1 });
    return { companyId, outboxId: box.id };
  }

  async function createSequence(core: TestCore, companyId: string, body: Record<string, unknown>) {
    const res = await core.api('POST', `/api/companies/${companyId}/crm/sequences`, { body });
    expect(res.status, res.text).toBe(201);
    return res.body;
  }
  async function enroll(core: TestCore, companyId: string, sequenceId: string, contacts: string[]) {
    const res = await core.api('POST', `/api/companies/${companyId}/crm/sequences/${sequenceId}/enrollments`, { body: { contacts } });
    expect(res.status, res.text).toBe(201);
    return res.body.enrolled as { id: string }[];
  }

  it('sends each due step once across a double tick, a crash before the advance and a restart', async () => {
    const home = tempHome();
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const clock = manualClock('2026-11-23T10:00:00Z');
    t = await startCrmCore({ home, clock });
    const { companyId, outboxId } = await dryRunSetup(t);
    const seq = await createSequence(t, companyId, {
      name: 'Welcome',
      outboxId,
      sendWindow: ALWAYS,
      steps: [
        { delayMinutes: 0, payload: { subject: 'Hi', text: 'Welcome' } },
        { delayMinutes: 60, payload: { subject: 'Again', text: 'Follow-up' } },
      ],
    });
    const [e] = await enroll(t, companyId, seq.id, ['Ann@Example.com']);

    const [a, b] = await Promise.all([tick(t), tick(t)]);
    expect(a).toBe(b);
    expect(a!.outcomes).toEqual({ sent_dryrun: 1 });
    expect(activities(t)).toHaveLength(1);
    expect(await enrollment(t, companyId, e!.id)).toMatchObject({ status: 'active', stepIndex: 1, nextAt: '2026-11-23T11:00:00.000Z', lastOutcome: 'sent_dryrun' });
    expect((await tick(t)).dispatched).toBe(0);

    // A crash after the send committed but before the enrollment advanced: the row still says step 0.
    t.core.database.sqlite.prepare("UPDATE crm_sequence_enrollments SET step_index = 0, next_at = '2026-11-23T10:00:00.000Z', last_outcome = NULL WHERE id = ?").run(e!.id);
    await t.close();
    t = await startCrmCore({ home, clock });
    const replay = await tick(t);
    expect(replay.dispatched).toBe(1);
    expect(activities(t)).toHaveLength(1);
    expect(await enrollment(t, companyId, e!.id)).toMatchObject({ status: 'active', stepIndex: 1 });

    clock.advance(59 * 60_000);
    expect((await tick(t)).dispatched).toBe(0);
    clock.advance(60_000);
    await Promise.all([tick(t), tick(t), tick(t)]);
    expect(activities(t).map((x) => x.status)).toEqual(['sent_dryrun', 'sent_dryrun']);
    expect(await enrollment(t, companyId, e!.id)).toMatchObject({ status: 'completed', stepIndex: 2, nextAt: null });
  });

  it('respects the send window in a named time zone (and DST on the calendar)', async () => {
    // Saturday 10:00 in New York: outside Mon–Fri 09:00–17:00.
    const clock = manualClock('2026-11-21T15:00:00Z');
    t = await startCrmCore({ clock });
    const { companyId, outboxId } = await dryRunSetup(t);
    const seq = await createSequence(t, companyId, {
      name: 'Office hours',
      outboxId,
      sendWindow: { weekdays: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', tz: 'America/New_York' },
      steps: [{ delayMinutes: 0, payload: { text: 'Hello' } }],
    });
    const [e] = await enroll(t, companyId, seq.id, ['ann@example.com']);
    expect((await tick(t)).outcomes).toEqual({ outside_window: 1 });
    expect(activities(t)).toHaveLength(0);
    // Monday 09:00 EST = 14:00 UTC.
    expect((await enrollment(t, companyId, e!.id)).nextAt).toBe('2026-11-23T14:00:00.000Z');
    clock.set('2026-11-23T13:59:00Z');
    expect((await tick(t)).dispatched).toBe(0);
    clock.set('2026-11-23T14:00:00Z');
    expect((await tick(t)).outcomes).toEqual({ sent_dryrun: 1 });

    // Friday evening in Berlin before the spring DST switch → Monday 09:00 CEST (UTC+2) = 07:00 UTC.
    const berlin = { weekdays: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', tz: 'Europe/Berlin' };
    expect(nextSendTime(new Date('2026-03-27T17:30:00Z'), berlin).toISOString()).toBe('2026-03-30T07:00:00.000Z');
    // Inside the window: now.
    expect(nextSendTime(new Date('2026-03-30T08:00:00Z'), berlin).toISOString()).toBe('2026-03-30T08:00:00.000Z');
    // A window to 24:00 covers the day's last minute.
    expect(nextSendTime(new Date('2026-11-24T23:59:30Z'), { weekdays: [2], start: '00:00', end: '24:00', tz: 'UTC' }).toISOString()).toBe('2026-11-24T23:59:30.000Z');
    // After 17:00 on a Tuesday → Wednesday 09:00.
    expect(nextSendTime(new Date('2026-11-24T22:30:00Z'), { ...berlin, tz: 'America/New_York' }).toISOString()).toBe('2026-11-25T14:00:00.000Z');
  });

  it('waits for the board on a draft, follows the approval, and stops on a rejection or a blocked contact', async () => {
    const clock = manualClock('2026-11-23T10:00:00Z');
    t = await startCrmCore({ clock });
    const { companyId, outboxId } = await dryRunSetup(t, { autoApprove: false });
    allow(t, companyId, { kind: 'address', value: 'bob@example.com' });
    const seq = await createSequence(t, companyId, {
      name: 'Manual',
      outboxId,
      sendWindow: ALWAYS,
      steps: [
        { delayMinutes: 0, payload: { text: 'One' } },
        { delayMinutes: 0, payload: { text: 'Two' } },
      ],
    });
    const [ann, bob, eve] = await enroll(t, companyId, seq.id, ['ann@example.com', 'bob@example.com', 'eve@example.com']);
    const first = await tick(t);
    expect(first.outcomes).toEqual({ draft_pending_approval: 2, blocked_by_allowlist: 1 });
    expect(await enrollment(t, companyId, eve!.id)).toMatchObject({ status: 'stopped', stopReason: 'blocked_by_allowlist' });
    const annE = await enrollment(t, companyId, ann!.id);
    const bobE = await enrollment(t, companyId, bob!.id);
    expect(annE).toMatchObject({ status: 'waiting_approval', stepIndex: 0 });

    // Undecided: ticks leave it waiting and send nothing new.
    clock.advance(60_000);
    await tick(t);
    expect(activities(t)).toHaveLength(3);
    expect((await enrollment(t, companyId, ann!.id)).status).toBe('waiting_approval');

    const approved = await t.api('POST', `/api/companies/${companyId}/crm/activities/${annE.lastActivityId}/approve`, { body: {} });
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body.status).toBe('sent_dryrun');
    const rejected = await t.api('POST', `/api/companies/${companyId}/crm/activities/${bobE.lastActivityId}/reject`, { body: {} });
    expect(rejected.status, rejected.text).toBe(200);

    const second = await tick(t);
    expect(second.outcomes).toMatchObject({ sent_dryrun: 1, rejected: 1 });
    expect(await enrollment(t, companyId, ann!.id)).toMatchObject({ status: 'active', stepIndex: 1 });
    expect(await enrollment(t, companyId, bob!.id)).toMatchObject({ status: 'stopped', stopReason: 'rejected_by_board' });
    // Ann's second step is a new draft of its own (its own dedup key).
    await tick(t);
    expect(await enrollment(t, companyId, ann!.id)).toMatchObject({ status: 'waiting_approval', stepIndex: 1 });
    expect(activities(t).filter((a) => a.contact === 'ann@example.com')).toHaveLength(2);
  });

  it('waits for the next quota day on blocked_by_quota and backs off after a failed send (real channel, local platform)', async () => {
    const clock = manualClock('2026-11-23T22:00:00Z');
    let failNext = false;
    const platform = await fakeApi(() => (failNext ? ((failNext = false), { status: 503, body: { error: 'busy' } }) : { body: { id: `m-${Math.random()}` } }));
    cleanup.push(() => platform.close());
    t = await startCrmCore({ clock });
    expect((await t.api('PUT', '/api/admin/crm/settings', { body: { forceDryRun: false } })).status).toBe(200);
    const companyId = await createCompany(t);
    const secretRef = await createSecret(t, companyId, 'NETWORK_TOKEN', 'tok-1');
    const box = outbox(t, companyId, { channel: 'network_a', config: { baseUrl: platform.url }, secretRef, dailyCap: 1 });
    rule(t, companyId, { action: 'auto_approve', priority: 1 });
    for (const h of ['ann', 'bob', 'cy']) allow(t, companyId, { kind: 'handle', value: h });
    const seq = await createSequence(t, companyId, { name: 'Network', outboxId: box.id, sendWindow: ALWAYS, steps: [{ delayMinutes: 0, kind: 'message', payload: { text: 'Hello' } }] });
    const [ann, bob] = await enroll(t, companyId, seq.id, ['ann', 'bob']);

    expect((await tick(t)).outcomes).toEqual({ sent: 1, blocked_by_quota: 1 });
    expect(platform.calls).toHaveLength(1);
    const blocked = [await enrollment(t, companyId, ann!.id), await enrollment(t, companyId, bob!.id)].find((x) => x.lastOutcome === 'blocked_by_quota');
    expect(blocked).toMatchObject({ status: 'active', stepIndex: 0, nextAt: '2026-11-24T00:00:00.000Z' });
    clock.set('2026-11-23T23:59:00Z');
    expect((await tick(t)).dispatched).toBe(0);

    // The next UTC day: same step, same activity row, now sent.
    clock.set('2026-11-24T00:00:30Z');
    expect((await tick(t)).outcomes).toEqual({ sent: 1 });
    expect(platform.calls).toHaveLength(2);
    expect(activities(t).map((a) => a.status)).toEqual(['sent', 'sent']);
    expect(await enrollment(t, companyId, blocked.id)).toMatchObject({ status: 'completed' });

    // A failed send backs off (1 minute), then the same step is retried on its row.
    const [cy] = await enroll(t, companyId, seq.id, ['cy']);
    clock.set('2026-11-25T08:00:00Z');
    failNext = true;
    expect((await tick(t)).outcomes).toEqual({ failed: 1 });
    expect(await enrollment(t, companyId, cy!.id)).toMatchObject({ status: 'active', failures: 1, nextAt: '2026-11-25T08:01:00.000Z' });
    clock.set('2026-11-25T08:01:00Z');
    expect((await tick(t)).outcomes).toEqual({ sent: 1 });
    const cyActs = activities(t).filter((a) => a.contact === 'cy');
    expect(cyActs).toHaveLength(1);
    expect(cyActs[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('validates steps against the channel when saved; agents manage sequences of their own company', async () => {
    t = await startCrmCore();
    const { companyId, outboxId } = await dryRunSetup(t);
    const key = await createAgentKey(t, (await createAgent(t, companyId)).id);
    const cal = outbox(t, companyId, { channel: 'calendar', config: { host: '127.0.0.1', port: 2525, fromAddress: 'team@example.com' } });

    const noPayload = await t.api('POST', `/api/companies/${companyId}/crm/sequences`, { body: { name: 'x', outboxId: cal.id, steps: [{ delayMinutes: 0, payload: { summary: 'Call' } }] } });
    expect(noPayload.status).toBe(400);
    expect(noPayload.body.error).toMatch(/body\.steps\.0\.payload/);
    const badWindow = await t.api('POST', `/api/companies/${companyId}/crm/sequences`, {
      body: { name: 'x', outboxId, steps: [{ delayMinutes: 0, payload: {} }], sendWindow: { weekdays: [1], start: '17:00', end: '09:00', tz: 'Mars/Olympus' } },
    });
    expect(badWindow.status).toBe(400);
    const problemPaths = badWindow.body.details.problems.map((p: { path: string }) => p.path);
    expect(problemPaths).toEqual(expect.arrayContaining(['body.sendWindow.tz']));

    const created = await t.api('POST', `/api/companies/${companyId}/crm/sequences`, { token: key, body: { name: 'Agent seq', outboxId, steps: [{ delayMinutes: 5, payload: { text: 'x' } }] } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.sendWindow).toEqual({ weekdays: [1, 2, 3, 4, 5, 6, 7], start: '00:00', end: '24:00', tz: 'UTC' });
    const again = await t.api('POST', `/api/companies/${companyId}/crm/sequences/${created.body.id}/enrollments`, { token: key, body: { contacts: ['ann@example.com', 'ANN@example.com'] } });
    expect(again.body.enrolled).toHaveLength(1);
    const dup = await t.api('POST', `/api/companies/${companyId}/crm/sequences/${created.body.id}/enrollments`, { token: key, body: { contacts: ['ann@example.com'] } });
    expect(dup.body).toMatchObject({ enrolled: [], skipped: [{ contact: 'ann@example.com', reason: 'already_enrolled' }] });

    const stop = await t.api('POST', `/api/companies/${companyId}/crm/enrollments/${again.body.enrolled[0].id}/stop`, { token: key });
    expect(stop.body).toMatchObject({ status: 'stopped', stopReason: 'stopped_by_request' });
    const other = await createCompany(t, 'Other');
    expect((await t.api('GET', `/api/companies/${other}/crm/sequences`, { token: key })).status).toBe(404);
    expect((await t.api('DELETE', `/api/companies/${companyId}/crm/sequences/${created.body.id}`, { token: key })).status).toBe(204);
    expect((await t.api('GET', `/api/companies/${companyId}/crm/sequences`)).body).toHaveLength(0);
  });
});
