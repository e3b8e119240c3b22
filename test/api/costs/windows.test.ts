import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany } from '../../helpers/core.js';
import { costBody, postCost, rows, spend, startCostsCore, type CostsCore } from './helpers.js';

let c: CostsCore;
let companyId: string;
let ada: { id: string };
beforeEach(async () => {
  c = await startCostsCore('2025-01-31T23:59:59.999Z');
  companyId = await createCompany(c.t);
  ada = await createAgent(c.t, companyId);
});
afterEach(async () => {
  await c.t.close();
});

const summary = (month?: string) => c.t.api('GET', `/api/companies/${companyId}/costs/summary${month ? `?month=${month}` : ''}`);
const spentOfAda = async () => (await c.t.api('GET', `/api/agents/${ada.id}`)).body.spentMonthlyCents;

describe('monthly windows in UTC', () => {
  it('counts 23:59:59.999Z on the last day to that month and 00:00:00Z to the next', async () => {
    await spend(c.t, companyId, ada.id, 7); // at the clock: 2025-01-31T23:59:59.999Z
    expect(await spentOfAda()).toBe(7);
    expect((await summary()).body).toMatchObject({ month: '2025-01', spentCents: 7 });

    c.clock.set('2025-02-01T00:00:00.000Z');
    expect(await spentOfAda()).toBe(0);
    await spend(c.t, companyId, ada.id, 2);
    expect(await spentOfAda()).toBe(2);
    // A late report dated in January, written with a local offset, still counts to January.
    const late = await postCost(c.t, companyId, costBody(ada.id, { costCents: 1, occurredAt: '2025-02-01T00:30:00+01:00' }));
    expect(late.body.occurredAt).toBe('2025-01-31T23:30:00.000Z');
    // And one exactly at the boundary, written as +00:00, counts to February.
    await postCost(c.t, companyId, costBody(ada.id, { costCents: 0.5, occurredAt: '2025-02-01T00:00:00+00:00' }));
    expect(await spentOfAda()).toBe(2.5);

    expect((await summary()).body).toMatchObject({
      month: '2025-02',
      windowStart: '2025-02-01T00:00:00.000Z',
      windowEnd: '2025-03-01T00:00:00.000Z',
      spentCents: 2.5,
    });
    expect((await summary('2025-01')).body).toMatchObject({
      month: '2025-01',
      windowStart: '2025-01-01T00:00:00.000Z',
      windowEnd: '2025-02-01T00:00:00.000Z',
      spentCents: 8,
    });
    const january = await c.t.api('GET', `/api/companies/${companyId}/costs/by-agent?month=2025-01`);
    expect(january.body).toEqual([expect.objectContaining({ agentId: ada.id, spentCents: 8, events: 2 })]);
    const agents = await c.t.api('GET', `/api/companies/${companyId}/agents`);
    expect(agents.body[0].spentMonthlyCents).toBe(2.5);
  });

  it('handles a leap-year February and December into January', async () => {
    c.clock.set('2024-02-29T23:59:59.999Z');
    await spend(c.t, companyId, ada.id, 1);
    c.clock.set('2024-12-31T23:59:59.999Z');
    await spend(c.t, companyId, ada.id, 2);
    c.clock.set('2025-01-01T00:00:00.000Z');
    await spend(c.t, companyId, ada.id, 4);
    expect((await summary('2024-02')).body).toMatchObject({ spentCents: 1, windowEnd: '2024-03-01T00:00:00.000Z' });
    expect((await summary('2024-12')).body).toMatchObject({ spentCents: 2, windowEnd: '2025-01-01T00:00:00.000Z' });
    expect((await summary()).body).toMatchObject({ month: '2025-01', spentCents: 4 });
  });
});

describe('concurrency', () => {
  it('loses no update among 50 concurrent cost events, to the micro-cent', async () => {
    c.clock.set('2025-02-10T12:00:00.000Z');
    await c.t.api('PATCH', `/api/agents/${ada.id}`, { body: { budgetMonthlyCents: 100 } });
    const key = await createAgentKey(c.t, ada.id);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postCost(c.t, companyId, costBody(ada.id, { costCents: 0.3333, inputTokens: i }), i % 2 ? key : undefined)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(rows(c.t, 'SELECT sum(cost_micro_cents) AS m, count(*) AS n FROM cost_events')).toEqual([{ m: 16_665_000, n: 50 }]);
    expect((await summary()).body.spentCents).toBe(16.665);
    const byAgent = (await c.t.api('GET', `/api/companies/${companyId}/costs/by-agent`)).body;
    expect(byAgent).toEqual([
      { agentId: ada.id, name: 'Ada', spentCents: 16.665, budgetMonthlyCents: 100, utilization: 0.16665, inputTokens: 1225, outputTokens: 10_000, events: 50 },
    ]);
    expect(await spentOfAda()).toBe(16.665);
    expect(rows(c.t, "SELECT count(*) AS n FROM activity WHERE action = 'cost.recorded'")).toEqual([{ n: 50 }]);
  });
});
