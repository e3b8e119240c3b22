import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allow, autoApproveAll, createOutbox, createSecretUri, crmWorld, platformStub, quotaOf, send, type CrmWorld, type PlatformStub } from './helpers.js';

describe('network_a, messaging_a and social_a against local stand-ins for their APIs', () => {
  let w: CrmWorld;
  let api: PlatformStub;
  let token: string;
  const outboxes: Record<string, any> = {};

  beforeAll(async () => {
    w = await crmWorld();
    api = await platformStub();
    token = 'tok_' + 'x'.repeat(24);
    const secretRef = await createSecretUri(w, 'PLATFORM_TOKEN', token);
    for (const channel of ['network_a', 'messaging_a', 'social_a']) {
      outboxes[channel] = await createOutbox(w, { channel, secretRef, config: { baseUrl: `${api.baseUrl}/api` }, dailyCap: 5 });
    }
    await allow(w, 'handle', '@Jane.Doe');
    await allow(w, 'phone', '+1 (555) 123-4567');
    await autoApproveAll(w);
  });
  afterAll(async () => {
    await api.close();
    await w.t.close();
  });

  it('network_a: a message and a connection request, bearer token and idempotency key', async () => {
    api.respond = { status: 201, body: { id: 'net' } };
    const msg = await send(w, { channel: 'network_a', outboxId: outboxes.network_a.id, to: '@jane.doe', payload: { subject: 'Hi', text: 'Loved your talk' } });
    expect(msg.body).toMatchObject({ status: 'sent', to: 'jane.doe', kind: 'message' });
    const req = api.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', path: '/api/v1/messages', body: { recipientHandle: 'jane.doe', subject: 'Hi', text: 'Loved your talk' } });
    expect(req.headers.authorization).toBe(`Bearer ${token}`);
    expect(req.headers['idempotency-key']).toBe(msg.body.id);
    expect(msg.body.providerMessageId).toMatch(/^net-/);

    const invite = await send(w, { channel: 'network_a', outboxId: outboxes.network_a.id, to: 'jane.doe', kind: 'connection_request', payload: { text: 'Let us connect' } });
    expect(invite.body).toMatchObject({ status: 'sent', kind: 'connection_request' });
    expect(api.requests.at(-1)).toMatchObject({ path: '/api/v1/invitations', body: { recipientHandle: 'jane.doe', note: 'Let us connect' } });
  });

  it('messaging_a: E.164 recipient, text body; the {messages:[{id}]} answer gives the provider id', async () => {
    api.respond = { status: 200, body: { messages: [{ id: 'wamid.1' }] } };
    const res = await send(w, { channel: 'messaging_a', outboxId: outboxes.messaging_a.id, to: '+15551234567', payload: { text: 'Hello!' } });
    expect(res.body).toMatchObject({ status: 'sent', to: '+15551234567', providerMessageId: 'wamid.1' });
    expect(api.requests.at(-1)).toMatchObject({ path: '/api/v1/messages', body: { to: '+15551234567', type: 'text', text: { body: 'Hello!' } } });
  });

  it('social_a: a direct message with media', async () => {
    api.respond = { status: 201, body: { id: 'dm' } };
    const res = await send(w, { channel: 'social_a', outboxId: outboxes.social_a.id, to: 'JANE.DOE', kind: 'direct_message', payload: { text: 'Nice shot', mediaUrl: 'https://cdn.acme.test/a.jpg' } });
    expect(res.body.status).toBe('sent');
    expect(api.requests.at(-1)).toMatchObject({ path: '/api/v1/direct-messages', body: { recipientHandle: 'jane.doe', text: 'Nice shot', mediaUrl: 'https://cdn.acme.test/a.jpg' } });
  });

  it('an adapter failure is failed with the quota refunded and nothing else written; a replay retries it', async () => {
    const outbox = outboxes.social_a;
    const usedBefore = (await quotaOf(w, outbox.id)).used;
    api.respond = { status: 503, body: { error: `overloaded, your token was ${token}` } };
    const payload = { text: 'Try again later' };
    const res = await send(w, { channel: 'social_a', outboxId: outbox.id, to: 'jane.doe', payload });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', errorCode: 'http_503', providerMessageId: null, sentAt: null });
    expect(res.body.errorMessage).toContain('HTTP 503');
    expect(res.body.errorMessage).not.toContain(token);
    expect((await quotaOf(w, outbox.id)).used).toBe(usedBefore);

    api.respond = { status: 201, body: { id: 'dm' } };
    const again = await send(w, { channel: 'social_a', outboxId: outbox.id, to: 'jane.doe', payload });
    expect(again.body).toMatchObject({ id: res.body.id, status: 'sent', attempts: 2, errorCode: null, replayed: false });
    expect((await quotaOf(w, outbox.id)).used).toBe(usedBefore + 1);
  });

  it('an unreachable platform is failed with the quota refunded', async () => {
    const secretRef = await createSecretUri(w, 'T2', 'tok');
    const dead = await createOutbox(w, { channel: 'messaging_a', secretRef, config: { baseUrl: 'http://127.0.0.1:1' } });
    const res = await send(w, { channel: 'messaging_a', outboxId: dead.id, to: '+15551234567', payload: { text: 'x' } });
    expect(res.body).toMatchObject({ status: 'failed', errorCode: 'network_error' });
    expect((await quotaOf(w, dead.id)).used).toBe(0);
  });

  it('a secret deleted after the outbox was saved fails the send at send time, quota refunded', async () => {
    const created = await w.t.api('POST', `/api/companies/${w.companyId}/secrets`, { body: { name: 'SHORT_LIVED', value: 'v' } });
    const outbox = await createOutbox(w, { channel: 'network_a', secretRef: `secret://${created.body.id}:latest`, config: { baseUrl: api.baseUrl } });
    expect((await w.t.api('DELETE', `/api/secrets/${created.body.id}`)).status).toBeLessThan(300);
    const calls = api.requests.length;
    const res = await send(w, { channel: 'network_a', outboxId: outbox.id, to: 'jane.doe', payload: { text: 'hi' } });
    expect(res.body).toMatchObject({ status: 'failed', errorCode: 'invalid_secret_ref' });
    expect(api.requests.length).toBe(calls);
    expect((await quotaOf(w, outbox.id)).used).toBe(0);
  });
});
