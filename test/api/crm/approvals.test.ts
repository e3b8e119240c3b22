import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey } from '../../helpers/core.js';
import { allow, createOutbox, createSecretUri, crmWorld, platformStub, quotaOf, rule, send, type CrmWorld, type PlatformStub } from './helpers.js';

describe('drafts: single approve and reject, bulk-approve', () => {
  let w: CrmWorld;
  let api: PlatformStub;
  let outbox: any;
  let agentKey: string;

  beforeAll(async () => {
    w = await crmWorld();
    api = await platformStub();
    const secretRef = await createSecretUri(w, 'TOKEN', 'tok-1');
    outbox = await createOutbox(w, { channel: 'messaging_a', secretRef, config: { baseUrl: api.baseUrl }, dailyCap: 50 });
    agentKey = await createAgentKey(w.t, (await createAgent(w.t, w.companyId, { name: 'Closer' })).id);
    await allow(w, 'phone', '+15550000001');
    await allow(w, 'phone', '+15550000002');
    // No rule matches → queue_for_manual: every send below becomes a draft.
    await rule(w, { action: 'auto_approve', priority: 1, predicate: { channel: 'email' } });
  });
  afterAll(async () => {
    await api.close();
    await w.t.close();
  });

  const draft = async (text: string, to = '+15550000001', token?: string) => {
    const res = await send(w, { channel: 'messaging_a', outboxId: outbox.id, to, payload: { text } }, token);
    expect(res.body.status).toBe('draft_pending_approval');
    return res.body;
  };

  it('a draft is not sent; a replay returns it; the board approves it and it is sent without the rules', async () => {
    const d = await draft('approve me', '+15550000001', agentKey);
    expect(d.decision).toBe('queue_for_manual');
    expect(d.ruleId).toBeNull();
    const calls = api.requests.length;
    expect((await send(w, { channel: 'messaging_a', outboxId: outbox.id, to: '+15550000001', payload: { text: 'approve me' } }, agentKey)).body).toMatchObject({ id: d.id, replayed: true });
    expect(api.requests.length).toBe(calls);

    expect((await w.t.api('POST', `${w.base}/activities/${d.id}/approve`, { token: agentKey })).status).toBe(403);
    const ok = await w.t.api('POST', `${w.base}/activities/${d.id}/approve`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: d.id, status: 'sent', decision: 'board_approved', attempts: 1 });
    expect(ok.body.approvedAt).toBeTruthy();
    expect(api.requests.at(-1)!.body).toEqual({ to: '+15550000001', type: 'text', text: { body: 'approve me' } });
    const twice = await w.t.api('POST', `${w.base}/activities/${d.id}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('not_pending');
  });

  it('an approved draft still meets the allowlist: removed meanwhile → blocked_by_allowlist', async () => {
    const entry = await allow(w, 'phone', '+15550000099');
    const d = await draft('then removed', '+15550000099');
    expect((await w.t.api('DELETE', `${w.base}/allowlist/${entry.id}`)).status).toBe(204);
    const res = await w.t.api('POST', `${w.base}/activities/${d.id}/approve`);
    expect(res.body.status).toBe('blocked_by_allowlist');
  });

  it('reject: board only, becomes rejected, is never sent, a replay stays rejected', async () => {
    const d = await draft('reject me');
    expect((await w.t.api('POST', `${w.base}/activities/${d.id}/reject`, { token: agentKey, body: {} })).status).toBe(403);
    const res = await w.t.api('POST', `${w.base}/activities/${d.id}/reject`, { body: { note: 'off-brand' } });
    expect(res.body).toMatchObject({ status: 'rejected', decision: 'board_rejected' });
    const calls = api.requests.length;
    expect((await send(w, { channel: 'messaging_a', outboxId: outbox.id, to: '+15550000001', payload: { text: 'reject me' } })).body).toMatchObject({ id: d.id, status: 'rejected', replayed: true });
    expect(api.requests.length).toBe(calls);
    expect((await w.t.api('POST', `${w.base}/activities/${d.id}/approve`)).status).toBe(409);
  });

  it('bulk-approve: 403 forbidden for an agent key, never a silent no-op; nothing changes', async () => {
    const d = await draft('bulk agent');
    const before = w.t.snapshot();
    const res = await w.t.api('POST', `${w.base}/approvals/bulk-approve`, { token: agentKey, body: { approvalIds: [d.id] } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    expect(w.t.snapshot()).toEqual(before);
    expect((await w.t.api('GET', `${w.base}/activities/${d.id}`)).body.status).toBe('draft_pending_approval');
  });

  it('bulk-approve by the administrator: every draft dispatched, quota counted', async () => {
    const drafts = [await draft('b1'), await draft('b2', '+15550000002'), await draft('b3')];
    const used = (await quotaOf(w, outbox.id)).used;
    const res = await w.t.api('POST', `${w.base}/approvals/bulk-approve`, { body: { approvalIds: drafts.map((d) => d.id) } });
    expect(res.status).toBe(200);
    expect(res.body.approved).toBe(3);
    expect(res.body.results.map((r: any) => [r.id, r.status])).toEqual(drafts.map((d) => [d.id, 'sent']));
    expect((await quotaOf(w, outbox.id)).used).toBe(used + 3);
  });

  it('bulk-approve is all or nothing: one id not pending refuses the request with the reasons', async () => {
    const good = await draft('stays pending');
    const sent = (await w.t.api('GET', `${w.base}/activities?status=sent&limit=1`)).body.items[0];
    const missing = crypto.randomUUID();
    const calls = api.requests.length;
    const res = await w.t.api('POST', `${w.base}/approvals/bulk-approve`, { body: { approvalIds: [good.id, sent.id, missing] } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('not_pending');
    expect(res.body.details.problems).toEqual([
      { id: sent.id, reason: 'not_pending', status: 'sent' },
      { id: missing, reason: 'not_found' },
    ]);
    expect(api.requests.length).toBe(calls);
    const still = (await w.t.api('GET', `${w.base}/activities/${good.id}`)).body;
    expect(still).toMatchObject({ status: 'draft_pending_approval', approvedAt: null });
  });

  it('approved drafts beyond the cap are blocked_by_quota, and a failing channel refunds', async () => {
    const small = await createOutbox(w, { channel: 'messaging_a', secretRef: outbox.secretRef, config: { baseUrl: api.baseUrl }, dailyCap: 1 });
    const mk = async (text: string) => (await send(w, { channel: 'messaging_a', outboxId: small.id, to: '+15550000001', payload: { text } })).body;
    const a = await mk('q1');
    const b = await mk('q2');
    const c = await mk('q3');
    api.respond = { status: 500, body: { error: 'down' } };
    const first = await w.t.api('POST', `${w.base}/activities/${a.id}/approve`);
    expect(first.body.status).toBe('failed');
    api.respond = { status: 201, body: { id: 'ok' } };
    const res = await w.t.api('POST', `${w.base}/approvals/bulk-approve`, { body: { approvalIds: [b.id, c.id] } });
    expect(res.body.results.map((r: any) => r.status)).toEqual(['sent', 'blocked_by_quota']);
    expect(await quotaOf(w, small.id)).toMatchObject({ used: 1, cap: 1 });
  });
});
