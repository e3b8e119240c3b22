import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, expectError, startAgentsCore } from './helpers.js';

let t: TestCore;
let company: string;
beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

const patch = (agentId: string, body: unknown, token?: string) => t.api('PATCH', `/api/agents/${agentId}`, { body, token });

describe('patch agent (board)', () => {
  it('changes every field', async () => {
    const boss = await createAgent(t, company, { name: 'Boss' });
    const agent = await createAgent(t, company, { name: 'Ada' });
    const res = await patch(agent.id, {
      name: 'Ada L',
      urlKey: 'ada-l',
      role: 'cto',
      title: 'Chief',
      reportsTo: boss.id,
      capabilities: 'everything',
      adapterType: 'http',
      adapterConfig: { url: 'http://localhost:9000/hook' },
      budgetMonthlyCents: 1234,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: agent.id,
      name: 'Ada L',
      urlKey: 'ada-l',
      role: 'cto',
      title: 'Chief',
      reportsTo: boss.id,
      capabilities: 'everything',
      adapterType: 'http',
      adapterConfig: { url: 'http://localhost:9000/hook', method: 'POST', timeoutSec: 30 },
      budgetMonthlyCents: 1234,
      chainOfCommand: [{ id: boss.id, name: 'Boss', role: 'ceo' }],
      createdAt: agent.createdAt,
    });
    expect(res.body.updatedAt > agent.updatedAt).toBe(true);
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body).toEqual(res.body);
    // reportsTo back to null.
    const detached = await patch(agent.id, { reportsTo: null });
    expect(detached.body.reportsTo).toBeNull();
    expect(detached.body.chainOfCommand).toEqual([]);
  });

  it('replaces adapterConfig whole and records a revision only when the configuration changes', async () => {
    const agent = await createAgent(t, company, { adapterConfig: { command: 'echo', args: ['hi'], cwd: '/srv', env: { A: '1' } } });
    const revs = async () => (await t.api('GET', `/api/agents/${agent.id}/config-revisions`)).body as any[];
    expect((await revs()).length).toBe(1);

    const replaced = await patch(agent.id, { adapterConfig: { command: 'cat' } });
    expect(replaced.status).toBe(200);
    // Not merged: args, cwd and env are gone, defaults are back.
    expect(replaced.body.adapterConfig).toEqual({ command: 'cat', timeoutSec: 300, graceMs: 10000 });
    expect((await revs()).map((r) => [r.revisionNumber, r.reason])).toEqual([
      [2, 'update'],
      [1, 'create'],
    ]);

    // The same config again (with or without the defaults spelled out) is not a change.
    for (const adapterConfig of [{ command: 'cat' }, { command: 'cat', timeoutSec: 300, graceMs: 10000 }]) {
      const before = t.snapshot();
      const same = await patch(agent.id, { adapterConfig });
      expect(same.status).toBe(200);
      expect(same.body).toEqual(replaced.body);
      expect(t.snapshot()).toEqual(before);
    }
    expect((await revs()).length).toBe(2);

    // Changing only non-config fields makes no revision.
    expect((await patch(agent.id, { title: 'New title', budgetMonthlyCents: 10 })).status).toBe(200);
    expect((await revs()).length).toBe(2);

    // Changing the type alone (config valid for both? no: it is validated against the new type).
    const before = t.snapshot();
    expectError(await patch(agent.id, { adapterType: 'http' }), 400, 'validation_error', 'body.adapterConfig');
    expect(t.snapshot()).toEqual(before);
    expect((await patch(agent.id, { adapterType: 'http', adapterConfig: { url: 'https://example.com' } })).status).toBe(200);
    const latest = (await revs())[0];
    expect(latest).toMatchObject({ revisionNumber: 3, reason: 'update', adapterType: 'http', adapterConfig: { url: 'https://example.com', method: 'POST', timeoutSec: 30 } });
  });

  it('treats a patch that changes nothing as a no-op that writes nothing', async () => {
    const boss = await createAgent(t, company, { name: 'Boss' });
    const agent = await createAgent(t, company, { name: 'Ada', title: 'T', reportsTo: boss.id, budgetMonthlyCents: 5 });
    const before = t.snapshot();
    for (const body of [
      {},
      { name: 'Ada' },
      { name: '  Ada  ' },
      { title: 'T', role: 'ceo', reportsTo: boss.id, budgetMonthlyCents: 5, urlKey: 'ada' },
      { adapterType: 'process' },
      { adapterConfig: { command: 'echo' } },
    ]) {
      const res = await patch(agent.id, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toEqual(agent);
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('lets an agent be renamed to a different case of its own name, but not to a taken name or urlKey', async () => {
    const ada = await createAgent(t, company, { name: 'Ada' });
    const bob = await createAgent(t, company, { name: 'Bob' });
    expect((await patch(ada.id, { name: 'ADA' })).body.name).toBe('ADA');
    const before = t.snapshot();
    expectError(await patch(ada.id, { name: 'bob' }), 409, 'agent_name_taken');
    expectError(await patch(ada.id, { urlKey: bob.urlKey }), 409, 'url_key_taken');
    expect(t.snapshot()).toEqual(before);
  });

  it('refuses reporting cycles and foreign managers', async () => {
    const a = await createAgent(t, company, { name: 'A' });
    const b = await createAgent(t, company, { name: 'B', reportsTo: a.id });
    const c = await createAgent(t, company, { name: 'C', reportsTo: b.id });
    const other = await createCompany(t, 'Other');
    const foreign = await createAgent(t, other, { name: 'F' });
    const before = t.snapshot();
    expectError(await patch(a.id, { reportsTo: a.id }), 400, 'reports_to_cycle', 'body.reportsTo');
    expectError(await patch(a.id, { reportsTo: b.id }), 400, 'reports_to_cycle', 'body.reportsTo');
    expectError(await patch(a.id, { reportsTo: c.id }), 400, 'reports_to_cycle', 'body.reportsTo');
    expectError(await patch(b.id, { reportsTo: c.id }), 400, 'reports_to_cycle', 'body.reportsTo');
    expectError(await patch(c.id, { reportsTo: foreign.id }), 400, 'invalid_reports_to', 'body.reportsTo');
    expectError(await patch(c.id, { reportsTo: MISSING_ID }), 400, 'invalid_reports_to', 'body.reportsTo');
    // A valid change alongside an invalid one is not applied either.
    expectError(await patch(a.id, { title: 'changed', reportsTo: c.id }), 400, 'reports_to_cycle', 'body.reportsTo');
    expect(t.snapshot()).toEqual(before);
    expect((await t.api('GET', `/api/agents/${a.id}`)).body.title).toBe('');
    // Moving C directly under A is fine (no cycle).
    const moved = await patch(c.id, { reportsTo: a.id });
    expect(moved.status).toBe(200);
    expect(moved.body.chainOfCommand.map((l: any) => l.id)).toEqual([a.id]);
  });

  it('refuses a terminated manager', async () => {
    const gone = await createAgent(t, company, { name: 'Gone' });
    const agent = await createAgent(t, company, { name: 'Ada2' });
    expect((await t.api('POST', `/api/agents/${gone.id}/terminate`)).status).toBe(200);
    const before = t.snapshot();
    expectError(await patch(agent.id, { reportsTo: gone.id }), 400, 'invalid_reports_to', 'body.reportsTo');
    expect(t.snapshot()).toEqual(before);
  });

  it('refuses to change a terminated agent', async () => {
    const agent = await createAgent(t, company);
    expect((await t.api('POST', `/api/agents/${agent.id}/terminate`)).status).toBe(200);
    const before = t.snapshot();
    for (const body of [{ title: 'x' }, {}, { adapterConfig: { command: 'ls' } }, { budgetMonthlyCents: 1 }]) {
      expectError(await patch(agent.id, body), 409, 'agent_terminated');
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('rejects malformed patches, naming the field, and writes nothing', async () => {
    const agent = await createAgent(t, company);
    const before = t.snapshot();
    const cases: [unknown, string][] = [
      [{ name: '' }, 'body.name'],
      [{ status: 'paused' }, 'body.status'],
      [{ id: MISSING_ID }, 'body.id'],
      [{ companyId: MISSING_ID }, 'body.companyId'],
      [{ budgetMonthlyCents: -5 }, 'body.budgetMonthlyCents'],
      [{ reportsTo: 'nobody' }, 'body.reportsTo'],
      [{ urlKey: 'Not OK' }, 'body.urlKey'],
      [{ adapterConfig: { command: 'x', cwd: 'rel' } }, 'body.adapterConfig.cwd'],
      [{ adapterConfig: { command: 'x', env: { SERVICE_RUN_ID: 'r' } } }, 'body.adapterConfig.env.SERVICE_RUN_ID'],
      [{ adapterConfig: { command: 'x', bogus: 1 } }, 'body.adapterConfig.bogus'],
      [{ adapterConfig: {} }, 'body.adapterConfig.command'],
    ];
    for (const [body, field] of cases) expectError(await patch(agent.id, body), 400, 'validation_error', field);
    expectError(await patch(agent.id, { adapterType: 'nope_adapter' }), 400, 'unknown_adapter_type', 'body.adapterType');
    expectError(await patch('not-a-uuid', { title: 'x' }), 400, 'validation_error', 'params.agentId');
    expectError(await patch(MISSING_ID, { title: 'x' }), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
  });
});
