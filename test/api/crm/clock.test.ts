import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allow, createOutbox, createSecretUri, crmWorld, platformStub, quotaOf, rule, send, type CrmWorld, type PlatformStub } from './helpers.js';

/** The dispatcher reads the core's clock: rule windows and the UTC quota day follow it. */
describe('time: rule windows at send time and the quota day', () => {
  let now = new Date('2026-03-08T09:30:00Z');
  let w: CrmWorld;
  let api: PlatformStub;
  let outbox: any;

  beforeAll(async () => {
    w = await crmWorld({ core: { clock: { now: () => now } } });
    api = await platformStub();
    const secretRef = await createSecretUri(w, 'TOKEN', 'tok');
    outbox = await createOutbox(w, { channel: 'network_a', secretRef, config: { baseUrl: api.baseUrl }, dailyCap: 1 });
    await allow(w, 'handle', 'lead');
    // Auto-approve only overnight in New York (across midnight); everything else waits for the board.
    await rule(w, { action: 'auto_approve', priority: 1, predicate: { timeOfDay: { start: '22:00', end: '06:00', tz: 'America/New_York' } } });
  });
  afterAll(async () => {
    await api.close();
    await w.t.close();
  });

  it('on the spring-forward day 09:30Z is 05:30 EDT (inside) and 10:30Z is 06:30 EDT (outside)', async () => {
    now = new Date('2026-03-08T09:30:00Z');
    expect((await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'early bird' } })).body).toMatchObject({ status: 'sent', decision: 'auto_approve' });
    now = new Date('2026-03-08T10:30:00Z');
    expect((await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'too late' } })).body.status).toBe('draft_pending_approval');
  });

  it('the cap holds for the UTC day and a new UTC day starts a new bucket; a blocked message is retried by sending it again', async () => {
    now = new Date('2026-03-08T23:30:00Z'); // 19:30 EDT: outside the window, so approve by hand
    const drafted = (await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'tomorrow maybe' } })).body;
    const approved = await w.t.api('POST', `${w.base}/activities/${drafted.id}/approve`);
    expect(approved.body.status).toBe('blocked_by_quota');
    expect(await quotaOf(w, outbox.id)).toMatchObject({ day: '2026-03-08', used: 1, cap: 1, resetsAt: '2026-03-09T00:00:00.000Z' });

    now = new Date('2026-03-09T03:00:00Z'); // 23:00 EDT on the 8th, but a new UTC day; inside the window
    expect(await quotaOf(w, outbox.id)).toMatchObject({ day: '2026-03-09', used: 0 });
    const retried = await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'tomorrow maybe' } });
    expect(retried.body).toMatchObject({ id: drafted.id, status: 'sent', decision: 'auto_approve', replayed: false });
    expect((await quotaOf(w, outbox.id)).used).toBe(1);
  });
});
