import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore } from '../../helpers/core.js';
import { openSse } from '../../helpers/sse.js';
import { allow, createOutbox, createSecretUri, crmWorld, send, type CrmWorld } from './helpers.js';

describe('outboxes, allowlist, quota view and the settings switch', () => {
  let w: CrmWorld;
  let agentKey: string;
  let secretRef: string;
  beforeAll(async () => {
    w = await crmWorld({ forceDryRun: true });
    agentKey = await createAgentKey(w.t, (await createAgent(w.t, w.companyId)).id);
    secretRef = await createSecretUri(w, 'API_TOKEN', 'tok-abc');
  });
  afterAll(() => w.t.close());

  it('creates, patches and soft-deletes an outbox; agents read but may not write', async () => {
    const o = await createOutbox(w, { channel: 'network_a', name: 'Founder profile', niche: 'devtools', secretRef, config: { baseUrl: 'https://api.network.test' } });
    expect(o).toMatchObject({ channel: 'network_a', niche: 'devtools', secretRef, dailyCap: null, deletedAt: null });
    expect((await w.t.api('POST', `${w.base}/outboxes`, { body: { channel: 'dry-run' }, token: agentKey })).status).toBe(403);
    expect((await w.t.api('GET', `${w.base}/outboxes`, { token: agentKey })).body.map((x: any) => x.id)).toContain(o.id);

    const p = await w.t.api('PATCH', `${w.base}/outboxes/${o.id}`, { body: { dailyCap: 7, config: { baseUrl: 'https://sandbox.network.test/' } } });
    expect(p.body).toMatchObject({ dailyCap: 7, config: { baseUrl: 'https://sandbox.network.test/' }, name: 'Founder profile' });
    expect((await w.t.api('PATCH', `${w.base}/outboxes/${o.id}`, { body: { channel: 'email' } })).status).toBe(400);

    const d = await w.t.api('DELETE', `${w.base}/outboxes/${o.id}`);
    expect(d.body.deletedAt).toBeTruthy();
    expect((await w.t.api('GET', `${w.base}/outboxes`)).body.map((x: any) => x.id)).not.toContain(o.id);
    expect((await w.t.api('DELETE', `${w.base}/outboxes/${o.id}`)).status).toBe(404);
  });

  it('validates the channel config and the secret reference (shape and a live secret of this company)', async () => {
    const post = (body: Record<string, unknown>) => w.t.api('POST', `${w.base}/outboxes`, { body });
    const expectField = async (body: Record<string, unknown>, field: string) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(field);
    };
    await expectField({ channel: 'email', config: { host: 'smtp.test', port: 587 } }, 'body.config.fromAddress');
    await expectField({ channel: 'email', config: { host: 'smtp.test', port: 70000, fromAddress: 'a@b.test' } }, 'body.config.port');
    await expectField({ channel: 'social_a', secretRef, config: { baseUrl: 'ftp://x.test' } }, 'body.config.baseUrl');
    await expectField({ channel: 'social_a', config: { baseUrl: 'https://x.test' } }, 'body.secretRef');
    await expectField({ channel: 'social_a', secretRef: 'tok-abc', config: { baseUrl: 'https://x.test' } }, 'body.secretRef');
    await expectField({ channel: 'social_a', secretRef: `secret://${crypto.randomUUID()}:latest`, config: { baseUrl: 'https://x.test' } }, 'body.secretRef');
    await expectField({ channel: 'social_a', secretRef: secretRef.replace(':latest', ':9'), config: { baseUrl: 'https://x.test' } }, 'body.secretRef');
    await expectField({ channel: 'dry-run', secretRef: `secret://${crypto.randomUUID()}:latest` }, 'body.secretRef');
    // Without a host the secret is the whole SMTP connection, so it is required and the host-only fields are refused.
    await expectField({ channel: 'email', config: { fromAddress: 'a@b.test' } }, 'body.secretRef');
    await expectField({ channel: 'calendar', config: { fromAddress: 'a@b.test' } }, 'body.secretRef');
    await expectField({ channel: 'email', secretRef, config: { fromAddress: 'a@b.test', port: 25 } }, 'body.config.port');
    await expectField({ channel: 'email', secretRef, config: { fromAddress: 'a@b.test', username: 'me' } }, 'body.config.username');
    await expectField({ channel: 'email', config: { host: 'smtp.test', fromAddress: 'a@b.test' } }, 'body.config.port');
    await expectField({ channel: 'fax' }, 'body.channel');
    // A secret of another company is the same as a missing one.
    const other = await createCompany(w.t, 'Other');
    const foreign = await w.t.api('POST', `/api/companies/${other}/secrets`, { body: { name: 'X', value: 'y' } });
    await expectField({ channel: 'social_a', secretRef: `secret://${foreign.body.id}:1`, config: { baseUrl: 'https://x.test' } }, 'body.secretRef');
    expect((await post({ channel: 'email', config: { host: 'smtp.test', port: 465, secure: true, fromAddress: 'a@b.test' } })).status).toBe(201);
    // A dry-run outbox may carry the secret its real channel will use (never read when sending).
    const dry = await post({ channel: 'dry-run', secretRef });
    expect(dry.status, dry.text).toBe(201);
    expect(dry.body.secretRef).toBe(secretRef);
    const mail = await post({ channel: 'email', secretRef, config: { fromAddress: 'a@b.test' } });
    expect(mail.status, mail.text).toBe(201);
    expect(mail.body.config).toEqual({ fromAddress: 'a@b.test' });
    const patched = await w.t.api('PATCH', `${w.base}/outboxes/${mail.body.id}`, { body: { secretRef: null } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain('body.secretRef');
  });

  it('allowlist: normalized values, duplicates 409, board-only writes, wildcard domains, scope by outbox', async () => {
    const dry = await createOutbox(w, { channel: 'dry-run' });
    const dry2 = await createOutbox(w, { channel: 'dry-run' });
    const entry = await allow(w, 'address', ' Boss@Client.TEST ');
    expect(entry.value).toBe('boss@client.test');
    expect((await w.t.api('POST', `${w.base}/allowlist`, { body: { kind: 'address', value: 'boss@client.test' } })).status).toBe(409);
    expect((await w.t.api('POST', `${w.base}/allowlist`, { body: { kind: 'phone', value: '555-1234' } })).body.error).toContain('body.value');
    expect((await w.t.api('POST', `${w.base}/allowlist`, { body: { kind: 'handle', value: 'x' }, token: agentKey })).status).toBe(403);
    await allow(w, 'domain', '*.corp.test');
    await allow(w, 'handle', 'only-here', { outboxId: dry.id });

    const status = async (outboxId: string, to: string) => (await send(w, { channel: 'dry-run', outboxId, to, payload: { n: Math.random() } })).body.status;
    const rules = await w.t.api('POST', `${w.base}/approval-rules`, { body: { action: 'auto_approve', priority: 0 } });
    expect(rules.status).toBe(201);
    expect(await status(dry.id, 'BOSS@client.test')).toBe('sent_dryrun');
    expect(await status(dry.id, 'other@client.test')).toBe('blocked_by_allowlist');
    expect(await status(dry.id, 'a@eu.corp.test')).toBe('sent_dryrun');
    expect(await status(dry.id, 'a@corp.test')).toBe('blocked_by_allowlist');
    expect(await status(dry.id, '@Only-Here')).toBe('sent_dryrun');
    expect(await status(dry2.id, 'only-here')).toBe('blocked_by_allowlist');

    const listed = await w.t.api('GET', `${w.base}/allowlist?outboxId=${dry.id}`, { token: agentKey });
    expect(listed.body.map((e: any) => e.value)).toEqual(['only-here']);
    expect((await w.t.api('DELETE', `${w.base}/allowlist/${entry.id}`)).status).toBe(204);
    expect(await status(dry.id, 'boss@client.test')).toBe('blocked_by_allowlist');
  });

  it('quota view: used, cap (default 50), remaining and the next UTC midnight', async () => {
    const o = await createOutbox(w, { channel: 'messaging_a', secretRef, config: { baseUrl: 'https://m.test' } });
    const rows = (await w.t.api('GET', `${w.base}/quota`, { token: agentKey })).body as any[];
    const row = rows.find((r) => r.outboxId === o.id);
    const today = new Date().toISOString().slice(0, 10);
    expect(row).toMatchObject({ day: today, used: 0, cap: 50, remaining: 50, channel: 'messaging_a' });
    expect(row.resetsAt).toBe(new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString());
  });

  it('settings: board only; the switch defaults to on in a fresh home', async () => {
    expect((await w.t.api('GET', '/api/admin/crm/settings', { token: agentKey })).status).toBe(403);
    const fresh = await startCore({ heartbeats: false });
    try {
      expect((await fresh.api('GET', '/api/admin/crm/settings')).body).toEqual({ forceDryRun: true });
      expect((await fresh.api('PUT', '/api/admin/crm/settings', { body: { forceDryRun: false } })).body).toEqual({ forceDryRun: false });
      expect((await fresh.api('GET', '/api/admin/crm/settings')).body).toEqual({ forceDryRun: false });
    } finally {
      await fresh.close();
    }
  });

  it('activities page newest first with an opaque cursor and filter by status', async () => {
    const dry = await createOutbox(w, { channel: 'dry-run' });
    await allow(w, 'handle', 'pager');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await send(w, { channel: 'dry-run', outboxId: dry.id, to: 'pager', payload: { i } })).body.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `outboxId=${dry.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page: any = (await w.t.api('GET', `${w.base}/activities?${q}`, { token: agentKey })).body;
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((a: any) => a.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const blocked = (await w.t.api('GET', `${w.base}/activities?status=blocked_by_allowlist&limit=200`)).body.items;
    expect(blocked.length).toBeGreaterThan(0);
    expect(blocked.every((a: any) => a.status === 'blocked_by_allowlist')).toBe(true);
  });

  it('every state change reaches the company event stream', async () => {
    const sse = await openSse(`${w.t.url}/api/companies/${w.companyId}/events`, { authorization: `Bearer ${w.t.boardToken}` });
    try {
      const dry = await createOutbox(w, { channel: 'dry-run' });
      await allow(w, 'handle', 'evt');
      await send(w, { channel: 'dry-run', outboxId: dry.id, to: 'evt', payload: {} });
      await w.t.api('POST', `${w.base}/content-pieces`, { body: { title: 'T', sourcePath: 'evt.md', sourceSha256: 'c'.repeat(64) } });
      const want = ['crm.outbox.created', 'crm.allowlist.added', 'crm.activity.sent_dryrun', 'crm.content_piece.created'];
      const deadline = Date.now() + 5000;
      while (!want.every((e) => sse.events.some((x) => x.event === e)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(sse.events.map((e) => e.event)).toEqual(expect.arrayContaining(want));
      const activity = sse.events.find((e) => e.event === 'crm.activity.sent_dryrun')!;
      expect(activity.data).toMatchObject({ entityType: 'crm_activity' });
    } finally {
      sse.close();
    }
  });
});
