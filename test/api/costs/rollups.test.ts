import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { costBody, postCost, rows, startCostsCore, stopOf, type CostsCore } from './helpers.js';

// The spend rollups (issue 17): month totals per company, agent and project kept in the cost
// event's transaction. Whatever happens, they must equal a recomputation from the events.

const recomputed = (t: TestCore) =>
  rows(
    t,
    `SELECT company_id, month, scope, scope_id, sum(micro) AS micro, sum(i) AS input, sum(o) AS output, count(*) AS events FROM (
       SELECT company_id, substr(occurred_at, 1, 7) AS month, 'company' AS scope, company_id AS scope_id, cost_micro_cents AS micro, input_tokens AS i, output_tokens AS o FROM cost_events
       UNION ALL SELECT company_id, substr(occurred_at, 1, 7), 'agent', agent_id, cost_micro_cents, input_tokens, output_tokens FROM cost_events
       UNION ALL SELECT company_id, substr(occurred_at, 1, 7), 'project', coalesce(project_id, ''), cost_micro_cents, input_tokens, output_tokens FROM cost_events)
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
  );
const stored = (t: TestCore) =>
  rows(
    t,
    `SELECT company_id, month, scope, scope_id, cost_micro_cents AS micro, input_tokens AS input, output_tokens AS output, events FROM spend_rollups ORDER BY 1, 2, 3, 4`,
  );

let c: CostsCore | undefined;
const extra: TestCore[] = [];
afterEach(async () => {
  for (const t of extra.splice(0)) await t.close();
  await c?.t.close();
  c = undefined;
});

async function project(t: TestCore, companyId: string, name: string): Promise<string> {
  const res = await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('spend rollups', () => {
  it('equal a recomputation from the events after mixed inserts, refusals included', async () => {
    c = await startCostsCore('2026-03-15T12:00:00.000Z');
    const { t } = c;
    const acme = await createCompany(t, 'Acme');
    const other = await createCompany(t, 'Other');
    const [a, b] = [await createAgent(t, acme, { name: 'A' }), await createAgent(t, acme, { name: 'B' })];
    const o = await createAgent(t, other, { name: 'O' });
    const p1 = await project(t, acme, 'P1');
    const issue = (await t.api('POST', `/api/companies/${acme}/issues`, { body: { title: 'In P1', projectId: p1 } })).body;
    const bodies: [string, Record<string, unknown>][] = [
      [acme, costBody(a.id, { costCents: 1.234567 })],
      [acme, costBody(a.id, { costCents: 2, projectId: p1 })],
      [acme, costBody(b.id, { costCents: 0.5, issueId: issue.id })], // project taken from the issue
      [acme, costBody(b.id, { costCents: 3, occurredAt: '2026-02-27T23:59:59.999Z' })], // last month, reported late
      [acme, costBody(a.id, { costCents: 4, occurredAt: '2026-01-01T00:00:00.000Z' })],
      [other, costBody(o.id, { costCents: 7, inputTokens: 5, outputTokens: 6 })],
    ];
    for (const [company, body] of bodies) expect((await postCost(t, company, body)).status).toBe(201);
    // Refused events leave nothing behind, in the rollups either.
    expect((await postCost(t, acme, costBody(o.id))).status).toBe(400);
    expect((await postCost(t, acme, costBody(a.id, { occurredAt: '2026-03-16T12:00:00.000Z' }))).status).toBe(400);

    expect(stored(t)).toEqual(recomputed(t));
    expect(stored(t).length).toBeGreaterThan(8);
    // And the routes say the same.
    const summary = (await t.api('GET', `/api/companies/${acme}/costs/summary`)).body;
    expect(summary.spentCents).toBe(3.734567);
    const byProject = (await t.api('GET', `/api/companies/${acme}/costs/by-project`)).body;
    expect(byProject.map((r: any) => [r.name, r.spentCents, r.events])).toEqual([
      ['P1', 2.5, 2],
      ['Unassigned', 1.234567, 1],
    ]);
    const feb = (await t.api('GET', `/api/companies/${acme}/costs/by-agent?month=2026-02`)).body;
    expect(feb.map((r: any) => [r.name, r.spentCents])).toEqual([
      ['B', 3],
      ['A', 0],
    ]);
  });

  it('start at zero in a new month and keep the old month, across the boundary of an injected clock', async () => {
    c = await startCostsCore('2026-01-31T23:59:00.000Z');
    const { t, clock } = c;
    const acme = await createCompany(t, 'Acme');
    const a = await createAgent(t, acme, { name: 'A', budgetMonthlyCents: 10 });
    expect((await postCost(t, acme, costBody(a.id, { costCents: 10 }))).status).toBe(201);
    expect(stopOf(c, acme, a.id)?.scope).toBe('agent');

    clock.set('2026-02-01T00:00:00.000Z');
    expect(stopOf(c, acme, a.id)).toBeNull();
    expect((await t.api('GET', `/api/companies/${acme}/costs/summary`)).body.spentCents).toBe(0);
    expect((await t.api('GET', `/api/agents/${a.id}`)).body.spentMonthlyCents).toBe(0);
    // A January event reported in February counts in January only.
    expect((await postCost(t, acme, costBody(a.id, { costCents: 1, occurredAt: '2026-01-31T23:59:30.000Z' }))).status).toBe(201);
    expect((await postCost(t, acme, costBody(a.id, { costCents: 2 }))).status).toBe(201);
    expect((await t.api('GET', `/api/companies/${acme}/costs/summary?month=2026-01`)).body.spentCents).toBe(11);
    expect((await t.api('GET', `/api/companies/${acme}/costs/summary`)).body.spentCents).toBe(2);
    expect(stored(t)).toEqual(recomputed(t));
  });

  it('are recomputed for an imported company, and built at start for a database without them', async () => {
    c = await startCostsCore('2026-03-15T12:00:00.000Z');
    const { t } = c;
    const acme = await createCompany(t, 'Acme');
    const a = await createAgent(t, acme, { name: 'A' });
    const p1 = await project(t, acme, 'P1');
    for (const cents of [1, 2.5, 4]) expect((await postCost(t, acme, costBody(a.id, { costCents: cents, projectId: p1 }))).status).toBe(201);
    expect((await postCost(t, acme, costBody(a.id, { costCents: 8, occurredAt: '2026-02-01T00:00:00.000Z' }))).status).toBe(201);

    const archive = await fetch(`${t.url}/api/companies/${acme}/export`, { headers: { authorization: `Bearer ${t.boardToken}` } });
    expect(archive.status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(await archive.arrayBuffer())], { type: 'application/gzip' }), 'company.tar.gz');
    const imported = await t.api('POST', '/api/companies/import', { raw: form });
    expect(imported.status, imported.text).toBe(201);
    const copy = imported.body.companyId as string;
    expect(imported.body.tables.spend_rollups).toBeUndefined();
    expect(stored(t)).toEqual(recomputed(t));
    expect((await t.api('GET', `/api/companies/${copy}/costs/summary`)).body.spentCents).toBe(7.5);
    expect((await t.api('GET', `/api/companies/${copy}/costs/summary?month=2026-02`)).body.spentCents).toBe(8);

    // A database from before the rollups (table empty): the next start builds them.
    const home = t.home;
    const expected = recomputed(t);
    t.core.database.sqlite.prepare('DELETE FROM spend_rollups').run();
    await t.core.close();
    const again = await startCore({ home, clock: c.clock });
    extra.push(again);
    expect(stored(again)).toEqual(expected);
  });
});
