import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { computeDedupKey } from '../../../main/core/crm/dedup-key.js';
import { startCore, tempHome } from '../../helpers/core.js';
import { memoryKeyProvider } from '../../../main/core/secrets/master-key.js';
import { allow, createOutbox, createSecretUri, crmWorld, platformStub, quotaOf, rule, send } from './helpers.js';

describe('start-up recovery of sends a crash left mid-flight', () => {
  const home = tempHome('headcount-crm-recovery-');
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('a reserved-but-unfinished attempt becomes failed (possibly sent) with its unit refunded; an approved draft is dispatched', async () => {
    const api = await platformStub();
    try {
      const keyProvider = memoryKeyProvider();
      const w = await crmWorld({ core: { home, keyProvider } });
      const secretRef = await createSecretUri(w, 'TOKEN', 'tok');
      const network = await createOutbox(w, { channel: 'network_a', secretRef, config: { baseUrl: api.baseUrl }, dailyCap: 3 });
      const messaging = await createOutbox(w, { channel: 'messaging_a', secretRef, config: { baseUrl: api.baseUrl } });
      await allow(w, 'handle', 'lead');
      await allow(w, 'phone', '+15557654321');
      await rule(w, { action: 'auto_approve', priority: 1, predicate: { channel: 'network_a' } });
      expect((await send(w, { channel: 'network_a', outboxId: network.id, to: 'lead', payload: { text: 'before the crash' } })).body.status).toBe('sent');
      const draft = (await send(w, { channel: 'messaging_a', outboxId: messaging.id, to: '+15557654321', payload: { text: 'approved, then crash' } })).body;
      expect(draft.status).toBe('draft_pending_approval');
      const companyId = w.companyId;
      await w.t.core.close();

      // What a crash leaves: an attempt in `sending` holding a quota unit, and a draft approved but never dispatched.
      const payload = { text: 'in flight' };
      const dedupKey = computeDedupKey('board', 'lead', 'message', payload);
      const day = new Date().toISOString().slice(0, 10);
      const now = new Date().toISOString();
      const db = new Database(path.join(home, 'service.db'));
      db.prepare(
        `INSERT INTO crm_activities (id, company_id, status, dedup_key, outbox_id, channel, contact, kind, payload, tags, actor_type, origin, decision, quota_day, dry_run, possibly_sent, attempts, created_at, updated_at)
         VALUES (?, ?, 'sending', ?, ?, 'network_a', 'lead', 'message', ?, '[]', 'board', 'api', 'auto_approve', ?, 0, 0, 1, ?, ?)`,
      ).run('00000000-0000-4000-8000-000000000001', companyId, dedupKey, network.id, JSON.stringify(payload), day, now, now);
      db.prepare('UPDATE crm_quota_buckets SET used = used + 1 WHERE outbox_id = ? AND day = ?').run(network.id, day);
      db.prepare("UPDATE crm_activities SET approved_at = ?, decision = 'board_approved' WHERE id = ?").run(now, draft.id);
      expect((db.prepare('SELECT used FROM crm_quota_buckets WHERE outbox_id = ?').get(network.id) as { used: number }).used).toBe(2);
      db.close();

      const calls = api.requests.length;
      const t2 = await startCore({ home, keyProvider, heartbeats: false });
      const w2 = { t: t2, companyId, base: `/api/companies/${companyId}/crm` };
      try {
        const recovered = (await t2.api('GET', `${w2.base}/activities/00000000-0000-4000-8000-000000000001`)).body;
        expect(recovered).toMatchObject({ status: 'failed', possiblySent: true, errorCode: 'interrupted' });
        expect((await quotaOf(w2, network.id)).used).toBe(1);
        // It may have left: a replay does not send it a second time.
        const replay = await send(w2, { channel: 'network_a', outboxId: network.id, to: 'lead', payload });
        expect(replay.body).toMatchObject({ id: recovered.id, status: 'failed', replayed: true });

        let resumed: any;
        for (let i = 0; i < 100; i++) {
          resumed = (await t2.api('GET', `${w2.base}/activities/${draft.id}`)).body;
          if (resumed.status !== 'draft_pending_approval') break;
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(resumed).toMatchObject({ status: 'sent', decision: 'board_approved' });
        expect(api.requests.length - calls).toBe(1);
        expect(api.requests.at(-1)!.body).toEqual({ to: '+15557654321', type: 'text', text: { body: 'approved, then crash' } });
        const events = (await t2.api('GET', `/api/companies/${companyId}/activity?entityType=crm_activity`)).body;
        expect(JSON.stringify(events)).toContain('crm.activity.failed');
      } finally {
        await t2.core.close();
      }
    } finally {
      await api.close();
    }
  });
});
