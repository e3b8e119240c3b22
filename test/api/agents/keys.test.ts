import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, createDraftAgent, expectError, keyLastUsed, sha256, startAgentsCore, useKeyAndSettle } from './helpers.js';

let t: TestCore;
let company: string;
beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

const KEY_FIELDS = ['agentId', 'createdAt', 'id', 'lastUsedAt', 'name', 'prefix', 'revokedAt'];

describe('agent keys', () => {
  it('returns the full key once, at creation', async () => {
    const agent = await createAgent(t, company);
    const res = await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: '  laptop  ' } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(res.body).toMatchObject({ agentId: agent.id, name: 'laptop', lastUsedAt: null, revokedAt: null });
    const key: string = res.body.key;
    expect(key.startsWith('hck_')).toBe(true);
    expect(key.length).toBeGreaterThanOrEqual(40);
    expect(key.startsWith(res.body.prefix)).toBe(true);
    expect(res.body.prefix.length).toBeLessThan(key.length / 2);

    // Only a hash is stored.
    const stored = t.core.database.sqlite.prepare('SELECT * FROM agent_api_keys WHERE id = ?').get(res.body.id) as Record<string, unknown>;
    expect(Object.values(stored)).not.toContain(key);
    expect(stored.key_hash).toBe(sha256(key));
    expect(JSON.stringify(stored)).not.toContain(key.slice(res.body.prefix.length));
  });

  it('creates a key without a body, or with an empty one, and every key is different', async () => {
    const agent = await createAgent(t, company);
    const a = await t.api('POST', `/api/agents/${agent.id}/keys`);
    const b = await t.api('POST', `/api/agents/${agent.id}/keys`, { body: {} });
    expect(a.status, a.text).toBe(201);
    expect(b.status, b.text).toBe(201);
    expect(a.body.name).toBe('');
    expect(a.body.key).not.toBe(b.body.key);
    expect(a.body.prefix).not.toBe(b.body.prefix);
  });

  it('lists keys newest first by prefix, never with the key or its hash', async () => {
    const agent = await createAgent(t, company);
    const created = [];
    for (const name of ['one', 'two', 'three']) {
      created.push((await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name } })).body);
    }
    const list = await t.api('GET', `/api/agents/${agent.id}/keys`);
    expect(list.status).toBe(200);
    expect(list.body.map((k: any) => k.name)).toEqual(['three', 'two', 'one']);
    for (const item of list.body) {
      expect(Object.keys(item).sort()).toEqual(KEY_FIELDS);
      const original = created.find((c) => c.id === item.id);
      const { key: _key, ...rest } = original;
      expect(item).toEqual(rest);
    }
    for (const c of created) {
      expect(list.text).not.toContain(c.key);
      expect(list.text).not.toContain(sha256(c.key));
      expect(list.text).not.toContain(c.key.slice(c.prefix.length));
    }
    expect(list.text).not.toMatch(/"(key|keyHash|key_hash|hash)"/);
  });

  it('lists only the agent\u2019s own keys', async () => {
    const a = await createAgent(t, company, { name: 'A' });
    const b = await createAgent(t, company, { name: 'B' });
    await createAgentKey(t, a.id);
    expect((await t.api('GET', `/api/agents/${b.id}/keys`)).body).toEqual([]);
    expect((await t.api('GET', `/api/agents/${a.id}/keys`)).body).toHaveLength(1);
  });

  it('authenticates as the agent on /api/agents/me and records last use', async () => {
    const agent = await createAgent(t, company);
    const res = await t.api('POST', `/api/agents/${agent.id}/keys`, { body: {} });
    const me = await t.api('GET', '/api/agents/me', { token: res.body.key });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(await (await t.api('GET', `/api/agents/${agent.id}`)).body);
    await useKeyAndSettle(t, res.body.key);
    expect(keyLastUsed(t, res.body.id)).not.toBeNull();
    const listed = (await t.api('GET', `/api/agents/${agent.id}/keys`)).body[0];
    expect(typeof listed.lastUsedAt).toBe('string');
  });

  it('does not count failed requests as use', async () => {
    const agent = await createAgent(t, company);
    const res = await t.api('POST', `/api/agents/${agent.id}/keys`, { body: {} });
    const before = t.snapshot();
    expectError(await t.api('POST', `/api/agents/${agent.id}/pause`, { token: res.body.key }), 403, 'board_only');
    await new Promise((r) => setTimeout(r, 30));
    expect(keyLastUsed(t, res.body.id)).toBeNull();
    expect(t.snapshot()).toEqual(before);
  });

  it('answers 403 not_an_agent on /api/agents/me for the board', async () => {
    expectError(await t.api('GET', '/api/agents/me'), 403, 'not_an_agent');
    expectError(await t.api('GET', '/api/agents/me', { token: null }), 401, 'unauthorized');
  });

  it('revokes a key: it then gets 401, idempotently, and other keys keep working', async () => {
    const agent = await createAgent(t, company);
    const a = (await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: 'a' } })).body;
    const b = (await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: 'b' } })).body;
    await useKeyAndSettle(t, a.key);
    const revoked = await t.api('DELETE', `/api/agents/${agent.id}/keys/${a.id}`);
    expect(revoked.status).toBe(200);
    expect(Object.keys(revoked.body).sort()).toEqual(KEY_FIELDS);
    expect(revoked.body).toMatchObject({ id: a.id, agentId: agent.id, prefix: a.prefix });
    expect(typeof revoked.body.revokedAt).toBe('string');

    const denied = await t.api('GET', '/api/agents/me', { token: a.key });
    expectError(denied, 401, 'unauthorized');
    expect(denied.text).not.toContain(a.key);
    expect((await t.api('GET', '/api/agents/me', { token: b.key })).status).toBe(200);
    await useKeyAndSettle(t, b.key);

    const before = t.snapshot();
    const again = await t.api('DELETE', `/api/agents/${agent.id}/keys/${a.id}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
    expect(t.snapshot()).toEqual(before);

    const list = (await t.api('GET', `/api/agents/${agent.id}/keys`)).body;
    expect(list.find((k: any) => k.id === a.id).revokedAt).toBe(revoked.body.revokedAt);
    expect(list.find((k: any) => k.id === b.id).revokedAt).toBeNull();
  });

  it('answers 404 for a key of another agent or a missing key, writing nothing', async () => {
    const a = await createAgent(t, company, { name: 'A' });
    const b = await createAgent(t, company, { name: 'B' });
    const keyA = (await t.api('POST', `/api/agents/${a.id}/keys`, { body: {} })).body;
    const before = t.snapshot();
    expectError(await t.api('DELETE', `/api/agents/${b.id}/keys/${keyA.id}`), 404, 'not_found');
    expectError(await t.api('DELETE', `/api/agents/${a.id}/keys/${MISSING_ID}`), 404, 'not_found');
    expectError(await t.api('DELETE', `/api/agents/${MISSING_ID}/keys/${keyA.id}`), 404, 'not_found');
    expectError(await t.api('DELETE', `/api/agents/${a.id}/keys/nope`), 400, 'validation_error', 'params.keyId');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', '/api/agents/me', { token: keyA.key })).status).toBe(200);
  });

  it('gives no keys to terminated or draft agents', async () => {
    const agent = await createAgent(t, company);
    await t.api('POST', `/api/agents/${agent.id}/terminate`);
    const draft = createDraftAgent(t, company, 'Hire');
    const before = t.snapshot();
    expectError(await t.api('POST', `/api/agents/${agent.id}/keys`, { body: {} }), 409, 'agent_terminated');
    expectError(await t.api('POST', `/api/agents/${draft.id}/keys`, { body: {} }), 409, 'agent_draft');
    expectError(await t.api('POST', `/api/agents/${MISSING_ID}/keys`, { body: {} }), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
    // The board may still list them.
    expect((await t.api('GET', `/api/agents/${draft.id}/keys`)).body).toEqual([]);
  });

  it('rejects malformed key requests, writing nothing', async () => {
    const agent = await createAgent(t, company);
    const before = t.snapshot();
    expectError(await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: 'x'.repeat(101) } }), 400, 'validation_error', 'body.name');
    expectError(await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: 5 } }), 400, 'validation_error', 'body.name');
    expectError(await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { scope: 'all' } }), 400, 'validation_error', 'body.scope');
    expectError(await t.api('POST', `/api/agents/${agent.id}/keys`, { raw: 'x', contentType: 'text/plain' }), 400, 'unsupported_media_type');
    expect(t.snapshot()).toEqual(before);
  });

  it('does not let agent keys manage keys, not even their own', async () => {
    const agent = await createAgent(t, company);
    const peer = await createAgent(t, company, { name: 'Peer' });
    const created = (await t.api('POST', `/api/agents/${agent.id}/keys`, { body: {} })).body;
    const key: string = created.key;
    await useKeyAndSettle(t, key);
    const before = t.snapshot();
    for (const target of [agent.id, peer.id]) {
      expectError(await t.api('POST', `/api/agents/${target}/keys`, { token: key, body: {} }), 403, 'board_only');
      expectError(await t.api('GET', `/api/agents/${target}/keys`, { token: key }), 403, 'board_only');
    }
    expectError(await t.api('DELETE', `/api/agents/${agent.id}/keys/${created.id}`, { token: key }), 403, 'board_only');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', '/api/agents/me', { token: key })).status).toBe(200);
  });

  it('rejects tokens that only look like keys', async () => {
    const agent = await createAgent(t, company);
    const key = await createAgentKey(t, agent.id);
    const before = t.snapshot();
    for (const token of ['hck_', `${key}x`, key.slice(0, -1), key.toUpperCase(), 'hck_' + 'A'.repeat(43)]) {
      expectError(await t.api('GET', '/api/agents/me', { token }), 401, 'unauthorized');
    }
    expectError(await t.api('GET', '/api/agents/me', { token: null, headers: { authorization: key } }), 401, 'unauthorized');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', '/api/agents/me', { token: null, headers: { authorization: `bearer ${key}` } })).status).toBe(200);
  });
});
