import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, allActivity, expectError, startAgentsCore, useKeyAndSettle } from './helpers.js';

let t: TestCore;
let company: string;
let other: string;
let self: any;
let peer: any;
let foreign: any;
let key: string;

beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
  other = await createCompany(t, 'Other');
  self = await createAgent(t, company, { name: 'Self', role: 'engineer', title: 'Engineer', capabilities: 'code' });
  peer = await createAgent(t, company, { name: 'Peer', role: 'engineer' });
  foreign = await createAgent(t, other, { name: 'Foreign' });
  key = await createAgentKey(t, self.id);
  await useKeyAndSettle(t, key);
});
afterEach(async () => {
  await t.close();
});

const patch = (agentId: string, body: unknown, token: string = key) => t.api('PATCH', `/api/agents/${agentId}`, { body, token });
const get = (agentId: string) => t.api('GET', `/api/agents/${agentId}`);

describe('agent credentials on the agents area', () => {
  it('reads its own record and its company\u2019s agents', async () => {
    const me = await t.api('GET', '/api/agents/me', { token: key });
    expect(me.status).toBe(200);
    expect(me.body).toEqual((await get(self.id)).body);
    expect(me.body.spentMonthlyCents).toBe(0);
    const list = await t.api('GET', `/api/companies/${company}/agents`, { token: key });
    expect(list.status).toBe(200);
    expect(list.body.map((a: any) => a.id)).toEqual([self.id, peer.id]);
    expect((await t.api('GET', `/api/agents/${peer.id}`, { token: key })).body.id).toBe(peer.id);
  });

  it('cannot create agents, in its company or another', async () => {
    const before = t.snapshot();
    const body = { name: 'Clone', adapterType: 'process', adapterConfig: { command: 'echo' } };
    expectError(await t.api('POST', `/api/companies/${company}/agents`, { token: key, body }), 403, 'board_only');
    expectError(await t.api('POST', `/api/companies/${other}/agents`, { token: key, body }), 403, 'board_only');
    expect(t.snapshot()).toEqual(before);
  });

  it('may change its own title and capabilities', async () => {
    const res = await patch(self.id, { title: 'Staff Engineer', capabilities: 'code, review' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ title: 'Staff Engineer', capabilities: 'code, review', name: 'Self', role: 'engineer' });
    expect((await get(self.id)).body).toEqual(res.body);
    const updated = (await allActivity(t, company)).find((a) => a.action === 'agent.updated');
    expect(updated).toMatchObject({ actorType: 'agent', actorId: self.id, entityType: 'agent', entityId: self.id });
    expect(updated?.details).toEqual({ fields: ['title', 'capabilities'] });
    // Its own no-op patch is allowed and writes nothing.
    await useKeyAndSettle(t, key);
    const before = t.snapshot();
    expect((await patch(self.id, {})).status).toBe(200);
    expect((await patch(self.id, { title: 'Staff Engineer' })).status).toBe(200);
    await useKeyAndSettle(t, key);
    expect(t.snapshot()).toEqual(before);
  });

  it('may not change anything else on its own record (board_only), and a mixed patch applies nothing', async () => {
    const before = t.snapshot();
    const denied: Record<string, unknown>[] = [
      { name: 'Renamed' },
      { role: 'ceo' },
      { urlKey: 'boss' },
      { reportsTo: peer.id },
      { reportsTo: null },
      { budgetMonthlyCents: 999999 },
      { adapterType: 'http' },
      { adapterConfig: { command: 'rm' } },
      { title: 'ok', budgetMonthlyCents: 0 },
      { capabilities: 'ok', adapterConfig: { command: 'echo' } },
    ];
    for (const body of denied) {
      const res = await patch(self.id, body);
      expectError(res, 403, 'board_only');
      for (const field of Object.keys(body).filter((k) => k !== 'title' && k !== 'capabilities')) {
        expect(res.body.error, JSON.stringify(body)).toContain(field);
      }
    }
    expect(t.snapshot()).toEqual(before);
    expect((await get(self.id)).body).toEqual({ ...self, spentMonthlyCents: 0 });
  });

  it('may not change another agent of its company (not_own_agent), not even the title', async () => {
    const before = t.snapshot();
    for (const body of [{ title: 'Pwned' }, { capabilities: 'none' }, {}, { name: 'X' }, { adapterConfig: { command: 'rm' } }]) {
      expectError(await patch(peer.id, body), 403, 'not_own_agent');
    }
    expect(t.snapshot()).toEqual(before);
    expect((await get(peer.id)).body.title).toBe('');
  });

  it('cannot tell another company\u2019s agent from a missing one', async () => {
    const before = t.snapshot();
    const pairs: [string, string, unknown?][] = [
      ['GET', `/api/agents/${foreign.id}`],
      ['PATCH', `/api/agents/${foreign.id}`, { title: 'x' }],
      ['PATCH', `/api/agents/${foreign.id}`, { name: 'x' }],
      ['GET', `/api/agents/${foreign.id}/config-revisions`],
    ];
    for (const [method, url, body] of pairs) {
      const foreignRes = await t.api(method, url, { token: key, body });
      const missingRes = await t.api(method, url.replace(foreign.id, MISSING_ID), { token: key, body });
      expectError(foreignRes, 404, 'not_found');
      expect(foreignRes.body, `${method} ${url}`).toEqual(missingRes.body);
      expect(foreignRes.text).not.toContain(foreign.id);
      expect(foreignRes.text).not.toContain('Foreign');
    }
    const foreignList = await t.api('GET', `/api/companies/${other}/agents`, { token: key });
    const missingList = await t.api('GET', `/api/companies/${MISSING_ID}/agents`, { token: key });
    expectError(foreignList, 404, 'not_found');
    expect(foreignList.body).toEqual(missingList.body);
    expect(t.snapshot()).toEqual(before);
    expect((await get(foreign.id)).body.title).toBe('');
  });

  it('loses access once its key is revoked or it is terminated', async () => {
    const keyId = (await t.api('GET', `/api/agents/${self.id}/keys`)).body[0].id;
    const second = await createAgentKey(t, self.id);
    expect((await t.api('DELETE', `/api/agents/${self.id}/keys/${keyId}`)).status).toBe(200);
    expectError(await patch(self.id, { title: 'x' }), 401, 'unauthorized');
    expect((await patch(self.id, { title: 'still here' }, second)).status).toBe(200);
    expect((await t.api('POST', `/api/agents/${self.id}/terminate`)).status).toBe(200);
    expectError(await t.api('GET', '/api/agents/me', { token: second }), 401, 'unauthorized');
  });

  it('lets the board do everything an agent may not', async () => {
    expect((await t.api('PATCH', `/api/agents/${peer.id}`, { body: { title: 'By board' } })).body.title).toBe('By board');
    expect((await t.api('PATCH', `/api/agents/${foreign.id}`, { body: { budgetMonthlyCents: 7 } })).body.budgetMonthlyCents).toBe(7);
    expect((await t.api('PATCH', `/api/agents/${self.id}`, { body: { name: 'Self 2', reportsTo: peer.id } })).body).toMatchObject({
      name: 'Self 2',
      reportsTo: peer.id,
    });
  });
});
