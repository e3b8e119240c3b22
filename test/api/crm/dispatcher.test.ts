import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../main/core/kernel/canonical-json.js';
import { createDispatcher } from '../../../main/core/crm/dispatcher.js';
import { createAgent, createAgentKey } from '../../helpers/core.js';
import { allow, createOutbox, createSecretUri, crmWorld, platformStub, quotaOf, rule, send, type CrmWorld, type PlatformStub } from './helpers.js';

const key = (actor: string, contact: string, kind: string, payload: unknown) => createHash('sha256').update(canonicalJson([actor, contact, kind, payload])).digest('hex');

describe('the dispatcher: statuses, dedup, quota under concurrency', () => {
  let w: CrmWorld;
  let api: PlatformStub;
  let secretRef: string;
  let agentKey: string;
  let agentId: string;

  beforeAll(async () => {
    w = await crmWorld();
    api = await platformStub();
    secretRef = await createSecretUri(w, 'TOKEN', 'tok-123');
    const agent = await createAgent(w.t, w.companyId, { name: 'Sales' });
    agentId = agent.id;
    agentKey = await createAgentKey(w.t, agent.id);
    await allow(w, 'handle', 'lead');
    for (let i = 0; i < 20; i++) await allow(w, 'handle', `lead${i}`);
    // Priority order: a queue rule for the "cold" tag before the catch-all auto-approve.
    await rule(w, { name: 'everything else', action: 'auto_approve', priority: 100 });
    await rule(w, { name: 'cold outreach needs a look', action: 'queue_for_manual', priority: 10, predicate: { tags: ['cold'] } });
  });
  afterAll(async () => {
    await api.close();
    await w.t.close();
  });

  const network = (dailyCap?: number) => createOutbox(w, { channel: 'network_a', secretRef, config: { baseUrl: api.baseUrl }, ...(dailyCap ? { dailyCap } : {}) });

  it('reaches every status of spec 3.5 through the API, each with HTTP 200', async () => {
    const outbox = await network(1);
    const seen: Record<string, string> = {};
    const s = async (body: Record<string, unknown>) => {
      const res = await send(w, { channel: 'network_a', outboxId: outbox.id, ...body });
      expect(res.status).toBe(200);
      seen[res.body.status] = res.body.id;
      return res.body;
    };
    expect((await s({ to: 'stranger', payload: { text: 'a' } })).status).toBe('blocked_by_allowlist');
    expect((await s({ to: 'lead', payload: { text: 'b' }, tags: ['cold'] })).status).toBe('draft_pending_approval');
    api.respond = { status: 500, body: { error: 'boom' } };
    expect((await s({ to: 'lead', payload: { text: 'c' } })).status).toBe('failed');
    api.respond = { status: 201, body: { id: 'ok' } };
    expect((await s({ to: 'lead', payload: { text: 'd' } })).status).toBe('sent');
    expect((await s({ to: 'lead', payload: { text: 'e' } })).status).toBe('blocked_by_quota');
    const dry = await createOutbox(w, { channel: 'dry-run' });
    const d = await send(w, { channel: 'dry-run', outboxId: dry.id, to: 'lead', payload: { text: 'f' } });
    expect(d.body).toMatchObject({ status: 'sent_dryrun', dryRun: true });
    // The dry-run channel still applies the allowlist.
    expect((await send(w, { channel: 'dry-run', outboxId: dry.id, to: 'stranger', payload: { text: 'f' } })).body.status).toBe('blocked_by_allowlist');
    const listed = await w.t.api('GET', `${w.base}/activities?outboxId=${outbox.id}`);
    expect(new Set(listed.body.items.map((a: any) => a.status))).toEqual(new Set(['blocked_by_allowlist', 'draft_pending_approval', 'failed', 'sent', 'blocked_by_quota']));
    const draft = listed.body.items.find((a: any) => a.status === 'draft_pending_approval');
    expect(draft).toMatchObject({ decision: 'queue_for_manual', tags: ['cold'] });
    expect(draft.ruleId).toBeTruthy();
  });

  it('the global switch turns every send into a dry run (allowlist still applied, no quota, no call)', async () => {
    const outbox = await network(5);
    expect((await w.t.api('PUT', '/api/admin/crm/settings', { body: { forceDryRun: true } })).body).toEqual({ forceDryRun: true });
    const calls = api.requests.length;
    try {
      const res = await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'rehearsal' } });
      expect(res.body).toMatchObject({ status: 'sent_dryrun', dryRun: true });
      expect((await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'nobody', payload: { text: 'rehearsal' } })).body.status).toBe('blocked_by_allowlist');
      expect(api.requests.length).toBe(calls);
      expect((await quotaOf(w, outbox.id)).used).toBe(0);
    } finally {
      await w.t.api('PUT', '/api/admin/crm/settings', { body: { forceDryRun: false } });
    }
    const agentTry = await w.t.api('PUT', '/api/admin/crm/settings', { body: { forceDryRun: false }, token: agentKey });
    expect(agentTry.status).toBe(403);
  });

  it('dedup: a replay of a sent message returns it and sends nothing; clientDedupKey must equal the server key', async () => {
    const outbox = await network(10);
    api.respond = { status: 201, body: { id: 'x' } };
    const payload = { text: 'Once only', subject: 'S' };
    const clientDedupKey = key(agentId, 'lead', 'message', payload);
    const first = await send(w, { channel: 'network_a', outboxId: outbox.id, to: '@LEAD', payload, clientDedupKey }, agentKey);
    expect(first.body).toMatchObject({ status: 'sent', dedupKey: clientDedupKey, actorType: 'agent', actorId: agentId, replayed: false });
    const calls = api.requests.length;
    const again = await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { subject: 'S', text: 'Once only' } }, agentKey);
    expect(again.body).toMatchObject({ id: first.body.id, status: 'sent', replayed: true });
    expect(api.requests.length).toBe(calls);
    expect((await quotaOf(w, outbox.id)).used).toBe(1);

    const wrong = await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload, clientDedupKey: 'a'.repeat(64) }, agentKey);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'dedup_key_mismatch', details: { expected: clientDedupKey } });
    // The board is a different sender: its key differs, so it is a new message.
    const board = await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload });
    expect(board.body).toMatchObject({ status: 'sent', replayed: false, dedupKey: key('board', 'lead', 'message', payload) });
  });

  it('20 parallel sends on an outbox with a cap of 5: exactly 5 sent, 15 blocked_by_quota', async () => {
    const outbox = await network(5);
    api.respond = { status: 201, body: { id: 'p' }, delayMs: 20 };
    const calls = api.requests.length;
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(w, { channel: 'network_a', outboxId: outbox.id, to: `lead${i}`, payload: { text: `n${i}` } })));
    api.respond = { status: 201, body: { id: 'x' } };
    const counts = results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.body.status]: (acc[r.body.status] ?? 0) + 1 }), {});
    expect(counts).toEqual({ sent: 5, blocked_by_quota: 15 });
    expect(api.requests.length - calls).toBe(5);
    expect(await quotaOf(w, outbox.id)).toMatchObject({ used: 5, cap: 5, remaining: 0 });
  });

  it('the cap is held by the database, not by the in-process lanes: two dispatchers racing still send exactly 5', async () => {
    const outbox = await network(5);
    const services = w.t.core.services;
    const deps = { resolveSecret: async (companyId: string, ref: string) => (await services.secrets.resolveSecretRef(companyId, ref)).value };
    const [d1, d2] = [createDispatcher(services.ctx, deps), createDispatcher(services.ctx, deps)];
    api.respond = { status: 201, body: { id: 'r' }, delayMs: 10 };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? d1 : d2).dispatch({ companyId: w.companyId, actor: { kind: 'board' }, channel: 'network_a', outboxId: outbox.id, to: `lead${i}`, payload: { text: `race ${i}` } }),
      ),
    );
    api.respond = { status: 201, body: { id: 'x' } };
    const statuses = outcomes.map((o) => o.activity.status);
    expect(statuses.filter((x) => x === 'sent')).toHaveLength(5);
    expect(statuses.filter((x) => x === 'blocked_by_quota')).toHaveLength(15);
    expect(await quotaOf(w, outbox.id)).toMatchObject({ used: 5, cap: 5 });
  });

  it('identical parallel sends make one adapter call and share one activity', async () => {
    const outbox = await network(50);
    api.respond = { status: 201, body: { id: 'same' }, delayMs: 50 };
    const calls = api.requests.length;
    const body = { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'parallel twin' } };
    const results = await Promise.all(Array.from({ length: 8 }, () => send(w, body)));
    api.respond = { status: 201, body: { id: 'x' } };
    expect(api.requests.length - calls).toBe(1);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.every((r) => r.body.status === 'sent')).toBe(true);
    expect(results.filter((r) => !r.body.replayed)).toHaveLength(1);
    expect((await quotaOf(w, outbox.id)).used).toBe(1);
  });

  it('the same message through two outboxes at once is still one message', async () => {
    const [a, b] = [await network(50), await network(50)];
    api.respond = { status: 201, body: { id: 'twin' }, delayMs: 50 };
    const calls = api.requests.length;
    const payload = { text: 'one of two outboxes' };
    const [ra, rb] = await Promise.all([a, b].map((o) => send(w, { channel: 'network_a', outboxId: o.id, to: 'lead', payload })));
    api.respond = { status: 201, body: { id: 'x' } };
    expect(api.requests.length - calls).toBe(1);
    expect(ra!.body.id).toBe(rb!.body.id);
    expect([ra!.body.status, rb!.body.status]).toEqual(['sent', 'sent']);
  });

  it('validates before writing: foreign or deleted outbox, channel mismatch, unknown kind, foreign content piece', async () => {
    const outbox = await network();
    const before = w.t.snapshot();
    expect((await send(w, { channel: 'email', outboxId: outbox.id, to: 'lead', payload: { text: 'x' } })).body.code).toBe('channel_mismatch');
    expect((await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', kind: 'invite', payload: { text: 'x' } })).body.error).toContain('body.kind');
    expect((await send(w, { channel: 'network_a', outboxId: crypto.randomUUID(), to: 'lead', payload: { text: 'x' } })).status).toBe(404);
    expect((await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'x' }, contentPieceId: crypto.randomUUID() })).body.error).toContain('body.contentPieceId');
    expect(w.t.snapshot()).toEqual(before);
    await w.t.api('DELETE', `${w.base}/outboxes/${outbox.id}`);
    expect((await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'lead', payload: { text: 'x' } })).status).toBe(404);
  });
});
