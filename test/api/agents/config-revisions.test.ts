import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, expectError, startAgentsCore, useKeyAndSettle } from './helpers.js';

let t: TestCore;
let company: string;
beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

const revisions = async (agentId: string, token?: string) => {
  const res = await t.api('GET', `/api/agents/${agentId}/config-revisions`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as any[];
};
const rollback = (agentId: string, revisionId: string, token?: string) =>
  t.api('POST', `/api/agents/${agentId}/config-revisions/${revisionId}/rollback`, { token });

const REVISION_FIELDS = [
  'actorId',
  'actorType',
  'adapterConfig',
  'adapterType',
  'agentId',
  'createdAt',
  'id',
  'reason',
  'revisionNumber',
  'rolledBackFromRevisionId',
].sort();

describe('config revisions', () => {
  it('numbers revisions from 1 (create), newest first, with the full configuration', async () => {
    const agent = await createAgent(t, company, { adapterConfig: { command: 'v1' } });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'v2' } } });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'v3', timeoutSec: 5 } } });
    const revs = await revisions(agent.id);
    expect(revs.map((r) => [r.revisionNumber, r.reason, r.adapterConfig.command])).toEqual([
      [3, 'update', 'v3'],
      [2, 'update', 'v2'],
      [1, 'create', 'v1'],
    ]);
    for (const r of revs) {
      expect(Object.keys(r).sort()).toEqual(REVISION_FIELDS);
      expect(r).toMatchObject({ agentId: agent.id, adapterType: 'process', actorType: 'board', actorId: null, rolledBackFromRevisionId: null });
    }
    // Stored with defaults applied: the revision says exactly what runs.
    expect(revs[2].adapterConfig).toEqual({ command: 'v1', timeoutSec: 300, graceMs: 10000 });
    expect(revs[0].adapterConfig).toEqual({ command: 'v3', timeoutSec: 5, graceMs: 10000 });
    expect(revs[0].createdAt >= revs[1].createdAt && revs[1].createdAt >= revs[2].createdAt).toBe(true);
    // Each agent has its own numbering.
    const other = await createAgent(t, company, { name: 'Other' });
    expect((await revisions(other.id)).map((r) => r.revisionNumber)).toEqual([1]);
  });

  it('rolls back to revision 1 as a new revision and restores the configuration', async () => {
    const agent = await createAgent(t, company, { adapterConfig: { command: 'v1', env: { A: '1' } } });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'v2' } } });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterType: 'http', adapterConfig: { url: 'https://example.com/x' } } });
    const before = await revisions(agent.id);
    const first = before.find((r) => r.revisionNumber === 1);

    const res = await rollback(agent.id, first.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: agent.id, adapterType: 'process', adapterConfig: agent.adapterConfig });
    expect(res.body.adapterConfig).toEqual({ command: 'v1', env: { A: '1' }, timeoutSec: 300, graceMs: 10000 });
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body).toEqual(res.body);

    const after = await revisions(agent.id);
    expect(after).toHaveLength(4);
    expect(after[0]).toMatchObject({
      revisionNumber: 4,
      reason: 'rollback',
      rolledBackFromRevisionId: first.id,
      adapterType: 'process',
      adapterConfig: first.adapterConfig,
      actorType: 'board',
    });
    // History is never rewritten.
    expect(after.slice(1)).toEqual(before);

    // Rolling back to the rollback's source again makes yet another revision.
    const again = await rollback(agent.id, before[0].id);
    expect(again.body.adapterType).toBe('http');
    expect((await revisions(agent.id))[0]).toMatchObject({ revisionNumber: 5, reason: 'rollback', rolledBackFromRevisionId: before[0].id });
  });

  it('answers 404 for an unknown revision or one of another agent, writing nothing', async () => {
    const agent = await createAgent(t, company);
    const other = await createAgent(t, company, { name: 'Other' });
    const otherRev = (await revisions(other.id))[0];
    const before = t.snapshot();
    expectError(await rollback(agent.id, MISSING_ID), 404, 'not_found');
    expectError(await rollback(agent.id, otherRev.id), 404, 'not_found');
    expectError(await rollback(MISSING_ID, otherRev.id), 404, 'not_found');
    expectError(await rollback(agent.id, 'nope'), 400, 'validation_error', 'params.revisionId');
    expectError(await t.api('POST', `/api/agents/${agent.id}/config-revisions/${otherRev.id}/rollback`, { body: { force: true } }), 400, 'validation_error', 'body.force');
    expectError(await t.api('GET', `/api/agents/${MISSING_ID}/config-revisions`), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
  });

  it('refuses to roll back a terminated agent', async () => {
    const agent = await createAgent(t, company);
    const rev = (await revisions(agent.id))[0];
    await t.api('POST', `/api/agents/${agent.id}/terminate`);
    const before = t.snapshot();
    expectError(await rollback(agent.id, rev.id), 409, 'agent_terminated');
    expect(t.snapshot()).toEqual(before);
    // The history stays readable.
    expect((await revisions(agent.id)).length).toBe(1);
  });

  it('lets agents of the company read revisions but not roll back', async () => {
    const agent = await createAgent(t, company);
    const peer = await createAgent(t, company, { name: 'Peer' });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'v2' } } });
    const key = await createAgentKey(t, agent.id);
    await useKeyAndSettle(t, key);
    const revs = await revisions(agent.id, key);
    expect(revs.map((r) => r.revisionNumber)).toEqual([2, 1]);
    expect((await revisions(peer.id, key)).length).toBe(1);

    const before = t.snapshot();
    expectError(await rollback(agent.id, revs[1].id, key), 403, 'board_only');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.adapterConfig.command).toBe('v2');
  });

  it('does not let an agent change its own configuration, so no revision is made', async () => {
    const agent = await createAgent(t, company);
    const key = await createAgentKey(t, agent.id);
    await useKeyAndSettle(t, key);
    const before = t.snapshot();
    expectError(await t.api('PATCH', `/api/agents/${agent.id}`, { token: key, body: { adapterConfig: { command: 'mine' } } }), 403, 'board_only');
    expect(t.snapshot()).toEqual(before);
    expect(await revisions(agent.id)).toHaveLength(1);
  });

  it('hides another company\u2019s revisions from an agent with the same 404 as a missing agent', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = await createAgent(t, other, { name: 'Foreign' });
    const foreignRev = (await revisions(foreign.id))[0];
    const key = await createAgentKey(t, (await createAgent(t, company)).id);
    await useKeyAndSettle(t, key);
    const foreignRes = await t.api('GET', `/api/agents/${foreign.id}/config-revisions`, { token: key });
    const missingRes = await t.api('GET', `/api/agents/${MISSING_ID}/config-revisions`, { token: key });
    expectError(foreignRes, 404, 'not_found');
    expect(foreignRes.body).toEqual(missingRes.body);
    const before = t.snapshot();
    expectError(await rollback(foreign.id, foreignRev.id, key), 403, 'board_only');
    expect(t.snapshot()).toEqual(before);
  });
});
