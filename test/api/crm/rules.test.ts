import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey } from '../../helpers/core.js';
import { inWindow, localMinutes, ruleMatches } from '../../../main/core/crm/rule-matcher.js';
import { allow, createOutbox, crmWorld, rule, send, type CrmWorld } from './helpers.js';

describe('rule matcher (pure)', () => {
  it('half-open windows, wrapping midnight, whole day when start = end', () => {
    const m = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
    expect(inWindow(m('09:00'), '09:00', '17:00')).toBe(true);
    expect(inWindow(m('17:00'), '09:00', '17:00')).toBe(false);
    expect(inWindow(m('23:59'), '22:00', '06:00')).toBe(true);
    expect(inWindow(m('00:00'), '22:00', '06:00')).toBe(true);
    expect(inWindow(m('06:00'), '22:00', '06:00')).toBe(false);
    expect(inWindow(m('12:00'), '22:00', '06:00')).toBe(false);
    expect(inWindow(m('12:00'), '08:00', '08:00')).toBe(true);
  });

  it('reads the wall clock of the zone, DST included', () => {
    expect(localMinutes(new Date('2026-03-08T06:59:00Z'), 'America/New_York')).toBe(60 + 59); // 01:59 EST
    expect(localMinutes(new Date('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(3 * 60); // 03:00 EDT: 02:xx never happens
    expect(localMinutes(new Date('2026-11-01T05:30:00Z'), 'America/New_York')).toBe(90); // 01:30 EDT
    expect(localMinutes(new Date('2026-11-01T06:30:00Z'), 'America/New_York')).toBe(90); // 01:30 EST, again
    expect(localMinutes(new Date('2026-06-01T00:00:00Z'), 'Asia/Kolkata')).toBe(5 * 60 + 30);
  });

  it('tags: all of the rule tags must be present (case-insensitive); niche compares case-insensitively', () => {
    const at = new Date();
    expect(ruleMatches({ tags: ['a', 'B'] }, { channel: 'email', niche: null, tags: ['b', 'c', 'A'], at })).toBe(true);
    expect(ruleMatches({ tags: ['a', 'b'] }, { channel: 'email', niche: null, tags: ['a'], at })).toBe(false);
    expect(ruleMatches({ niche: 'SaaS' }, { channel: 'email', niche: 'saas', tags: [], at })).toBe(true);
    expect(ruleMatches({ niche: 'saas' }, { channel: 'email', niche: null, tags: [], at })).toBe(false);
    expect(ruleMatches({ channel: 'email' }, { channel: 'calendar', niche: null, tags: [], at })).toBe(false);
    expect(ruleMatches({}, { channel: 'calendar', niche: null, tags: [], at })).toBe(true);
  });
});

describe('approval rules API and preview', () => {
  let w: CrmWorld;
  let agentKey: string;
  beforeAll(async () => {
    w = await crmWorld();
    agentKey = await createAgentKey(w.t, (await createAgent(w.t, w.companyId)).id);
  });
  afterAll(() => w.t.close());

  const preview = (ruleId: string, body: Record<string, unknown>) => w.t.api('POST', `${w.base}/approval-rules/${ruleId}/preview`, { body });

  it('preview across midnight on a spring-forward day, writing nothing', async () => {
    const night = await rule(w, { name: 'night shift', action: 'queue_for_manual', priority: 5, predicate: { timeOfDay: { start: '22:00', end: '06:00', tz: 'America/New_York' } } });
    const before = w.t.snapshot();
    const at = async (iso: string) => (await preview(night.id, { channel: 'email', at: iso })).body;
    expect(await at('2026-03-08T02:30:00Z')).toMatchObject({ matches: false, action: 'queue_for_manual', localTime: '21:30' });
    expect(await at('2026-03-08T03:30:00Z')).toMatchObject({ matches: true, localTime: '22:30' });
    expect(await at('2026-03-08T05:00:00Z')).toMatchObject({ matches: true, localTime: '00:00' });
    // 09:59Z is 05:59 EDT (inside); 10:30Z is 06:30 EDT (outside) — a fixed -05:00 offset would say 05:30, inside.
    expect(await at('2026-03-08T09:59:00Z')).toMatchObject({ matches: true, localTime: '05:59' });
    expect(await at('2026-03-08T10:30:00Z')).toMatchObject({ matches: false, localTime: '06:30' });
    expect(w.t.snapshot()).toEqual(before);
  });

  it('preview on DST days: business hours in London on the spring change, the repeated hour in New York in autumn', async () => {
    const office = await rule(w, { action: 'auto_approve', priority: 6, predicate: { channel: 'email', timeOfDay: { start: '09:00', end: '17:00', tz: 'Europe/London' } } });
    const p = async (iso: string, channel = 'email') => (await preview(office.id, { channel, at: iso })).body.matches;
    expect(await p('2026-03-29T08:30:00Z')).toBe(true); // 09:30 BST
    expect(await p('2026-03-28T08:30:00Z')).toBe(false); // 08:30 GMT the day before
    expect(await p('2026-03-29T16:30:00Z')).toBe(false); // 17:30 BST
    expect(await p('2026-03-29T08:30:00Z', 'calendar')).toBe(false);

    const repeated = await rule(w, { action: 'auto_approve', priority: 7, predicate: { timeOfDay: { start: '01:00', end: '02:00', tz: 'America/New_York' } } });
    const q = async (iso: string) => (await preview(repeated.id, { channel: 'email', at: iso })).body.matches;
    expect(await q('2026-11-01T05:30:00Z')).toBe(true); // 01:30 EDT
    expect(await q('2026-11-01T06:30:00Z')).toBe(true); // 01:30 EST
    expect(await q('2026-11-01T07:30:00Z')).toBe(false); // 02:30 EST
  });

  it('preview matches on niche and tags and returns the action', async () => {
    const r = await rule(w, { action: 'auto_approve', priority: 8, predicate: { niche: 'fintech', tags: ['warm', 'referral'] } });
    expect((await preview(r.id, { channel: 'social_a', niche: 'fintech', tags: ['referral', 'warm', 'x'] })).body).toMatchObject({ ruleId: r.id, matches: true, action: 'auto_approve', localTime: null });
    expect((await preview(r.id, { channel: 'social_a', niche: 'fintech', tags: ['warm'] })).body.matches).toBe(false);
    expect((await preview(r.id, { channel: 'social_a', niche: 'health', tags: ['warm', 'referral'] })).body.matches).toBe(false);
    // Agents may preview (it writes nothing) but not change rules.
    expect((await w.t.api('POST', `${w.base}/approval-rules/${r.id}/preview`, { body: { channel: 'email' }, token: agentKey })).status).toBe(200);
    expect((await w.t.api('POST', `${w.base}/approval-rules`, { body: { action: 'auto_approve', priority: 1 }, token: agentKey })).status).toBe(403);
  });

  it('lists in evaluation order; patch, disable and delete; invalid predicates name the field', async () => {
    const list = async () => (await w.t.api('GET', `${w.base}/approval-rules`)).body as any[];
    const priorities = (await list()).map((r) => r.priority);
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    const r = await rule(w, { action: 'auto_approve', priority: 50 });
    const patched = await w.t.api('PATCH', `${w.base}/approval-rules/${r.id}`, { body: { priority: -1, enabled: false, predicate: { channel: 'dry-run' } } });
    expect(patched.body).toMatchObject({ priority: -1, enabled: false, predicate: { channel: 'dry-run' } });
    expect((await list())[0].id).toBe(r.id);
    expect((await w.t.api('DELETE', `${w.base}/approval-rules/${r.id}`)).status).toBe(204);
    expect((await list()).some((x) => x.id === r.id)).toBe(false);
    expect((await preview(r.id, { channel: 'email' })).status).toBe(404);

    const bad = async (predicate: unknown, field: string) => {
      const res = await w.t.api('POST', `${w.base}/approval-rules`, { body: { action: 'auto_approve', priority: 1, predicate } });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(field);
    };
    await bad({ timeOfDay: { start: '24:00', end: '06:00', tz: 'UTC' } }, 'body.predicate.timeOfDay.start');
    await bad({ timeOfDay: { start: '22:00', end: '06:00', tz: 'Mars/Olympus' } }, 'body.predicate.timeOfDay.tz');
    await bad({ channel: 'fax' }, 'body.predicate.channel');
  });

  it('priority decides: the first matching rule wins at send time', async () => {
    // dispatcher.test.ts covers a queue rule at 10 before an auto-approve at 100; here a disabled rule is skipped.
    const w2 = await crmWorld({ forceDryRun: true });
    try {
      const outbox = await createOutbox(w2, { channel: 'dry-run' });
      await allow(w2, 'handle', 'x');
      await rule(w2, { action: 'queue_for_manual', priority: 1, enabled: false });
      const auto = await rule(w2, { action: 'auto_approve', priority: 2 });
      await rule(w2, { action: 'queue_for_manual', priority: 3 });
      const res = await send(w2, { channel: 'dry-run', outboxId: outbox.id, to: 'x', payload: {} });
      expect(res.body).toMatchObject({ status: 'sent_dryrun', ruleId: auto.id, decision: 'auto_approve' });
    } finally {
      await w2.t.close();
    }
  });
});
