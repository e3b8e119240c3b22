import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, type TestCore } from '../../helpers/core.js';
import { allActivity, createDraftAgent, sha256, startAgentsCore, useKeyAndSettle } from './helpers.js';

let t: TestCore;
let company: string;
beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

describe('activity of the agents area', () => {
  it('records each change once, with the agent as entity and the board as actor', async () => {
    const agent = await createAgent(t, company, { name: 'Ada' });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { title: 'CEO', budgetMonthlyCents: 500 } });
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: { command: 'ls' } } });
    await t.api('POST', `/api/agents/${agent.id}/pause`);
    await t.api('POST', `/api/agents/${agent.id}/resume`);
    const created = (await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: 'cli' } })).body;
    await t.api('DELETE', `/api/agents/${agent.id}/keys/${created.id}`);
    const firstRev = (await t.api('GET', `/api/agents/${agent.id}/config-revisions`)).body.at(-1);
    await t.api('POST', `/api/agents/${agent.id}/config-revisions/${firstRev.id}/rollback`);
    await t.api('POST', `/api/agents/${agent.id}/terminate`);

    const items = (await allActivity(t, company)).filter((a) => a.entityType === 'agent');
    expect(items.map((a) => a.action).reverse()).toEqual([
      'agent.created',
      'agent.updated',
      'agent.updated',
      'agent.paused',
      'agent.resumed',
      'agent_key.created',
      'agent_key.revoked',
      'agent.config_rolled_back',
      'agent.terminated',
    ]);
    for (const item of items) {
      expect(item).toMatchObject({ companyId: company, entityId: agent.id, actorType: 'board', actorId: null });
      expect(item.summary.length).toBeGreaterThan(0);
    }
    const byAction = (action: string) => items.filter((a) => a.action === action);
    expect(byAction('agent.created')[0]?.summary).toContain('Ada');
    expect(byAction('agent.updated').map((a) => a.details).reverse()).toEqual([
      { fields: ['title', 'budgetMonthlyCents'], budgetMonthlyCents: { from: 0, to: 500 } },
      // Only the configuration changed, not the type.
      { fields: ['adapterConfig'] },
    ]);
    expect(byAction('agent_key.created')[0]?.details).toEqual({ keyId: created.id });
    expect(byAction('agent_key.created')[0]?.summary).toContain(created.prefix);
    expect(byAction('agent_key.revoked')[0]?.details).toEqual({ keyId: created.id });
  });

  it('lists both adapterType and adapterConfig when the type changes', async () => {
    const agent = await createAgent(t, company);
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterType: 'http', adapterConfig: { url: 'https://example.com' } } });
    const updated = (await allActivity(t, company)).find((a) => a.action === 'agent.updated');
    expect(updated?.details).toEqual({ fields: ['adapterType', 'adapterConfig'] });
    expect(updated?.summary).toContain('adapterType, adapterConfig');
  });

  it('records a draft as drafted, not created', async () => {
    const draft = createDraftAgent(t, company, 'Hire');
    const items = await allActivity(t, company);
    expect(items.filter((a) => a.entityId === draft.id).map((a) => a.action)).toEqual(['agent.drafted']);
  });

  it('writes nothing for no-ops', async () => {
    const agent = await createAgent(t, company);
    await t.api('POST', `/api/agents/${agent.id}/resume`);
    await t.api('PATCH', `/api/agents/${agent.id}`, { body: { name: agent.name } });
    await t.api('POST', `/api/agents/${agent.id}/pause`);
    await t.api('POST', `/api/agents/${agent.id}/pause`);
    const actions = (await allActivity(t, company)).filter((a) => a.entityType === 'agent').map((a) => a.action);
    expect(actions).toEqual(['agent.paused', 'agent.created']);
  });

  it('never holds a full agent key, nor its hash, in summaries or details', async () => {
    const agent = await createAgent(t, company);
    const keys: string[] = [];
    for (let i = 0; i < 3; i++) keys.push((await t.api('POST', `/api/agents/${agent.id}/keys`, { body: { name: `k${i}` } })).body.key);
    for (const key of keys) await useKeyAndSettle(t, key);
    // An agent acting with its key leaves activity too.
    await t.api('PATCH', `/api/agents/${agent.id}`, { token: keys[0], body: { title: 'Self-titled' } });
    const list = (await t.api('GET', `/api/agents/${agent.id}/keys`)).body as any[];
    await t.api('DELETE', `/api/agents/${agent.id}/keys/${list[0].id}`);
    await t.api('POST', `/api/agents/${agent.id}/terminate`);

    const items = await allActivity(t, company);
    expect(items.filter((a) => a.action === 'agent_key.created')).toHaveLength(3);
    expect(items.find((a) => a.action === 'agent.updated')).toMatchObject({ actorType: 'agent', actorId: agent.id });
    const text = JSON.stringify(items);
    // Also straight from the table, in case the API filtered anything.
    const raw = JSON.stringify(t.core.database.sqlite.prepare('SELECT summary, details FROM activity').all());
    for (const key of keys) {
      const secretPart = key.slice('hck_'.length + 8);
      for (const haystack of [text, raw]) {
        expect(haystack).not.toContain(key);
        expect(haystack).not.toContain(secretPart);
        expect(haystack).not.toContain(sha256(key));
      }
    }
  });
});
