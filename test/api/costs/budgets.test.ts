import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany } from '../../helpers/core.js';
import { expectError, useKeyAndSettle } from '../agents/helpers.js';
import { actions, costBody, postCost, rows, spend, startCostsCore, stopOf, type CostsCore } from './helpers.js';

let c: CostsCore;
let companyId: string;
beforeEach(async () => {
  c = await startCostsCore('2025-03-10T12:00:00.000Z');
  companyId = await createCompany(c.t);
});
afterEach(async () => {
  await c.t.close();
});

const getAgent = async (id: string) => (await c.t.api('GET', `/api/agents/${id}`)).body;
const alerts = () => rows(c.t, 'SELECT scope_key, window_start, threshold, spent_micro_cents, budget_cents FROM budget_alerts ORDER BY rowid');

describe('80% soft alert', () => {
  it('is recorded once per scope and month, however many events land above it, and again next month', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 100 });
    const events: string[] = [];
    const unsubscribe = c.t.core.services.ctx.events.subscribe(companyId, (e) => events.push(e.type));
    await spend(c.t, companyId, ada.id, 79.999999);
    expect(actions(c.t, 'budget.warning')).toHaveLength(0);
    await spend(c.t, companyId, ada.id, 0.000001); // exactly 80%
    await spend(c.t, companyId, ada.id, 5);
    await spend(c.t, companyId, ada.id, 5);
    const warnings = actions(c.t, 'budget.warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ actor_type: 'system', entity_type: 'agent', entity_id: ada.id });
    expect(alerts()).toEqual([{ scope_key: `agent:${ada.id}`, window_start: '2025-03-01T00:00:00.000Z', threshold: 80, spent_micro_cents: 80_000_000, budget_cents: 100 }]);
    expect(events.filter((e) => e === 'budget.warning')).toHaveLength(1);
    expect((await getAgent(ada.id)).status).toBe('idle');

    c.clock.set('2025-04-01T00:00:00.000Z');
    await spend(c.t, companyId, ada.id, 85);
    await spend(c.t, companyId, ada.id, 1);
    expect(actions(c.t, 'budget.warning')).toHaveLength(2);
    expect(alerts().map((a) => [a.window_start, a.threshold])).toEqual([
      ['2025-03-01T00:00:00.000Z', 80],
      ['2025-04-01T00:00:00.000Z', 80],
    ]);
    expect(events.filter((e) => e === 'budget.warning')).toHaveLength(2);
    unsubscribe();
  });

  it('warns for the company budget too, with the company as the entity', async () => {
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 1000 } });
    const ada = await createAgent(c.t, companyId);
    await spend(c.t, companyId, ada.id, 500);
    await spend(c.t, companyId, ada.id, 300);
    await spend(c.t, companyId, ada.id, 100);
    expect(actions(c.t, 'budget.warning').map((a) => [a.entity_type, a.entity_id])).toEqual([['company', companyId]]);
    expect(stopOf(c, companyId, ada.id)).toBeNull();
  });
});

describe('100% of an agent budget', () => {
  it('pauses the agent end to end, cancels its runs after commit, and refuses a manual resume until the budget is raised', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 100 });
    const bob = await createAgent(c.t, companyId, { name: 'Bob' });
    const key = await createAgentKey(c.t, ada.id);
    await spend(c.t, companyId, ada.id, 60, key);
    expect(c.t.core.services.ctx.runs).toBe(c.runs);
    expect(c.runs.cancelled).toEqual([]);
    await spend(c.t, companyId, ada.id, 40, key); // reaches 100% exactly

    expect(await getAgent(ada.id)).toMatchObject({ status: 'paused', pauseReason: 'budget', spentMonthlyCents: 100 });
    expect(c.runs.cancelled).toEqual([[ada.id, 'budget']]);
    expect(actions(c.t, 'agent.budget_paused')).toEqual([expect.objectContaining({ actor_type: 'system', entity_id: ada.id })]);
    expect(alerts().map((a) => a.threshold)).toEqual([80, 100]);
    expect(stopOf(c, companyId, ada.id)).toMatchObject({ scope: 'agent' });
    expect(stopOf(c, companyId, bob.id)).toBeNull();
    expect((await getAgent(bob.id)).status).toBe('idle');

    // A late report while paused is still recorded; nothing is paused or cancelled twice.
    await spend(c.t, companyId, ada.id, 1, key);
    expect(c.runs.cancelled).toHaveLength(1);
    expect(actions(c.t, 'agent.budget_paused')).toHaveLength(1);

    await useKeyAndSettle(c.t, key);
    const before = c.t.snapshot();
    expectError(await c.t.api('POST', `/api/agents/${ada.id}/resume`, { body: {} }), 409, 'budget_exceeded');
    expectError(await c.t.api('PATCH', `/api/agents/${ada.id}`, { token: key, body: { budgetMonthlyCents: 500 } }), 403, 'board_only');
    expect(c.t.snapshot()).toEqual(before);

    // Raising the budget to exactly the spend is not enough: 100% is the stop.
    const same = await c.t.api('PATCH', `/api/agents/${ada.id}`, { body: { budgetMonthlyCents: 101 } });
    expect(same.body).toMatchObject({ status: 'paused', pauseReason: 'budget' });
    const raised = await c.t.api('PATCH', `/api/agents/${ada.id}`, { body: { budgetMonthlyCents: 200 } });
    expect(raised.status, raised.text).toBe(200);
    expect(raised.body).toMatchObject({ status: 'idle', pauseReason: null, budgetMonthlyCents: 200 });
    expect(actions(c.t, 'agent.budget_resumed')).toEqual([expect.objectContaining({ actor_type: 'system', entity_id: ada.id })]);
    expect(stopOf(c, companyId, ada.id)).toBeNull();

    // The 100% alert row stays once per month; the stop itself applies again at the new budget.
    await spend(c.t, companyId, ada.id, 99, key);
    expect(await getAgent(ada.id)).toMatchObject({ status: 'paused', pauseReason: 'budget' });
    expect(c.runs.cancelled).toEqual([[ada.id, 'budget'], [ada.id, 'budget']]);
    expect(alerts().map((a) => a.threshold)).toEqual([80, 100]);
  });

  it('lifts on a budget of 0 (no limit), and lowering a budget below spend pauses', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 50 });
    await spend(c.t, companyId, ada.id, 60);
    expect((await getAgent(ada.id)).status).toBe('paused');
    const unlimited = await c.t.api('PATCH', `/api/agents/${ada.id}`, { body: { budgetMonthlyCents: 0 } });
    expect(unlimited.body).toMatchObject({ status: 'idle', pauseReason: null });
    const lowered = await c.t.api('PATCH', `/api/agents/${ada.id}`, { body: { budgetMonthlyCents: 60 } });
    expect(lowered.body).toMatchObject({ status: 'paused', pauseReason: 'budget' });
    expect(c.runs.cancelled).toEqual([[ada.id, 'budget'], [ada.id, 'budget']]);
  });

  it('resumes a budget-paused agent lazily once a new UTC month starts', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 100 });
    const manual = await createAgent(c.t, companyId, { name: 'Manual', budgetMonthlyCents: 100 });
    await spend(c.t, companyId, ada.id, 150);
    await spend(c.t, companyId, manual.id, 50);
    await c.t.api('POST', `/api/agents/${manual.id}/pause`, { body: {} });
    c.clock.set('2025-03-31T23:59:59.999Z');
    expect((await getAgent(ada.id)).status).toBe('paused');
    expect(stopOf(c, companyId, ada.id)).toMatchObject({ scope: 'agent' });

    c.clock.set('2025-04-01T00:00:00.000Z');
    // The engine's check needs no write: a new month's spend is zero.
    expect(stopOf(c, companyId, ada.id)).toBeNull();
    const list = (await c.t.api('GET', `/api/companies/${companyId}/agents`)).body;
    expect(list.map((a: any) => [a.name, a.status, a.pauseReason, a.spentMonthlyCents])).toEqual([
      ['Ada', 'idle', null, 0],
      ['Manual', 'paused', 'manual', 0],
    ]);
    const resumed = actions(c.t, 'agent.budget_resumed');
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatchObject({ entity_id: ada.id, created_at: '2025-04-01T00:00:00.000Z' });
    // Reading again writes nothing more.
    const before = c.t.snapshot();
    await c.t.api('GET', `/api/companies/${companyId}/agents`);
    await getAgent(ada.id);
    expect(c.t.snapshot()).toEqual(before);
  });

  it('resumes a budget-paused agent on its first cost event of a new month, and judges it on that month alone', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 100 });
    await spend(c.t, companyId, ada.id, 150);
    c.clock.set('2025-04-01T09:00:00.000Z');
    // Nothing read the agent since the month turned: the cost event itself lifts the pause.
    await spend(c.t, companyId, ada.id, 30);
    const budgetActions = () => rows(c.t, "SELECT action FROM activity WHERE entity_id = ? AND action LIKE 'agent.budget_%' ORDER BY seq", ada.id).map((r) => r.action);
    expect(budgetActions()).toEqual(['agent.budget_paused', 'agent.budget_resumed']);
    // April's spend alone (30, then 90, then 110) warns and then pauses again.
    await spend(c.t, companyId, ada.id, 60);
    await spend(c.t, companyId, ada.id, 20);
    expect(await getAgent(ada.id)).toMatchObject({ status: 'paused', pauseReason: 'budget', spentMonthlyCents: 110 });
    expect(budgetActions()).toEqual(['agent.budget_paused', 'agent.budget_resumed', 'agent.budget_paused']);
    expect(alerts().filter((a) => a.window_start.startsWith('2025-04')).map((a) => [a.threshold, a.spent_micro_cents])).toEqual([
      [80, 90_000_000],
      [100, 110_000_000],
    ]);
  });

  it('judges this month by this month: a late report for last month moves neither its alerts nor its pauses', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 100 });
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 1000 } });
    await spend(c.t, companyId, ada.id, 10);
    const late = await postCost(c.t, companyId, costBody(ada.id, { costCents: 5000, occurredAt: '2025-02-27T10:00:00.000Z' }));
    expect(late.status, late.text).toBe(201);
    expect(await getAgent(ada.id)).toMatchObject({ status: 'idle', spentMonthlyCents: 10 });
    expect(alerts()).toEqual([]);
    // The next event of this month is judged on this month's 10 + 85, and warns the agent only.
    await spend(c.t, companyId, ada.id, 85);
    expect(alerts().map((a) => [a.scope_key, a.threshold, a.spent_micro_cents])).toEqual([[`agent:${ada.id}`, 80, 95_000_000]]);
  });

  it('also resumes at the month boundary when the agent is read alone', async () => {
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 100 });
    await spend(c.t, companyId, ada.id, 100);
    c.clock.set('2025-04-02T08:00:00.000Z');
    expect(await getAgent(ada.id)).toMatchObject({ status: 'idle', pauseReason: null, spentMonthlyCents: 0 });
  });
});

describe('100% of the company budget', () => {
  it('stops every agent through budgetStop without changing statuses, once, and lifts when the budget is raised', async () => {
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 100 } });
    const ada = await createAgent(c.t, companyId);
    const bob = await createAgent(c.t, companyId, { name: 'Bob' });
    const gone = await createAgent(c.t, companyId, { name: 'Gone' });
    await c.t.api('POST', `/api/agents/${gone.id}/terminate`, { body: {} });
    // Terminating stops the agent's runs; the budget assertions below start from a clean spy.
    expect(c.runs.cancelled).toEqual([[gone.id, 'terminated']]);
    c.runs.cancelled.length = 0;
    const events: string[] = [];
    const unsubscribe = c.t.core.services.ctx.events.subscribe(companyId, (e) => events.push(e.type));

    await spend(c.t, companyId, ada.id, 99.99);
    expect(stopOf(c, companyId, bob.id)).toBeNull();
    await spend(c.t, companyId, ada.id, 0.01);
    expect(stopOf(c, companyId, bob.id)).toMatchObject({ scope: 'company' });
    expect(stopOf(c, companyId, ada.id)?.reason).toContain('100 of 100 cents in 2025-03');
    expect(c.runs.cancelled).toEqual([[ada.id, 'company_budget'], [bob.id, 'company_budget']]);
    expect(actions(c.t, 'company.budget_exhausted')).toEqual([expect.objectContaining({ actor_type: 'system', entity_id: companyId })]);
    expect(events).toContain('company.budget_exhausted');
    for (const id of [ada.id, bob.id]) expect((await getAgent(id)).status).toBe('idle');
    expect((await c.t.api('GET', `/api/companies/${companyId}/costs/summary`)).body).toMatchObject({ status: 'exceeded', utilization: 1 });

    await spend(c.t, companyId, bob.id, 5);
    expect(actions(c.t, 'company.budget_exhausted')).toHaveLength(1);
    expect(c.runs.cancelled).toHaveLength(2);

    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 1000 } });
    expect(stopOf(c, companyId, ada.id)).toBeNull();
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 0 } });
    expect(stopOf(c, companyId, ada.id)).toBeNull();
    expect((await c.t.api('GET', `/api/companies/${companyId}/costs/summary`)).body).toMatchObject({ utilization: null, status: 'ok' });

    // Lowering the budget to the month's spend or below stops the company again at once.
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 105 } });
    expect(stopOf(c, companyId, ada.id)).toMatchObject({ scope: 'company' });
    expect(actions(c.t, 'company.budget_exhausted')).toHaveLength(2);
    expect(c.runs.cancelled).toHaveLength(4);

    // A new month lifts it with nothing to flip.
    c.clock.set('2025-04-01T00:00:00.000Z');
    expect(stopOf(c, companyId, ada.id)).toBeNull();
    unsubscribe();
  });

  it('reports the agent scope first when both budgets are used', async () => {
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 10 } });
    const ada = await createAgent(c.t, companyId, { budgetMonthlyCents: 10 });
    await spend(c.t, companyId, ada.id, 10);
    expect(stopOf(c, companyId, ada.id)).toMatchObject({ scope: 'agent' });
    expect(c.runs.cancelled).toEqual([[ada.id, 'budget']]);
  });
});
