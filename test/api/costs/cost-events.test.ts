import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany } from '../../helpers/core.js';
import { expectError, useKeyAndSettle } from '../agents/helpers.js';
import { createIssue } from '../issues/helpers.js';
import { costBody, postCost, rows, spend, startCostsCore, type CostsCore } from './helpers.js';

let c: CostsCore;
let companyId: string;
let ada: { id: string };
beforeEach(async () => {
  c = await startCostsCore('2025-03-10T12:00:00.000Z');
  companyId = await createCompany(c.t);
  ada = await createAgent(c.t, companyId);
});
afterEach(async () => {
  await c.t.close();
});

describe('POST /api/companies/{id}/cost-events', () => {
  it('records an event with sub-cent precision and answers 201 with costCents as a number', async () => {
    const res = await postCost(c.t, companyId, costBody(ada.id, { costCents: 0.3333 }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      companyId,
      agentId: ada.id,
      provider: 'anthropic',
      model: 'claude-sonnet',
      inputTokens: 1000,
      outputTokens: 200,
      costCents: 0.3333,
      runId: null,
      issueId: null,
      projectId: null,
      occurredAt: '2025-03-10T12:00:00.000Z',
      createdAt: '2025-03-10T12:00:00.000Z',
    });
    expect(rows(c.t, 'SELECT cost_micro_cents AS m FROM cost_events')).toEqual([{ m: 333_300 }]);
    const activity = rows(c.t, "SELECT * FROM activity WHERE action = 'cost.recorded'");
    expect(activity).toHaveLength(1);
    expect(activity[0]).toMatchObject({ actor_type: 'board', entity_type: 'cost_event', entity_id: res.body.id });
  });

  it('rounds to the micro-cent half up on the decimal value, not on its binary approximation', async () => {
    // 1.0000005 * 1e6 is 1000000.4999… in binary floating point; the decimal value rounds up.
    const cases: [number, number][] = [[1.0000005, 1.000001], [0.00000049, 0], [0.0000005, 0.000001], [12.3456784, 12.345678], [0, 0]];
    for (const [sent, kept] of cases) expect((await spend(c.t, companyId, ada.id, sent)).costCents, String(sent)).toBe(kept);
  });

  it('lets an agent report for itself with its key, and records it as the actor', async () => {
    const key = await createAgentKey(c.t, ada.id);
    const res = await postCost(c.t, companyId, costBody(ada.id, { costCents: 2.5 }), key);
    expect(res.status, res.text).toBe(201);
    expect(rows(c.t, "SELECT actor_type, actor_id FROM activity WHERE action = 'cost.recorded'")).toEqual([{ actor_type: 'agent', actor_id: ada.id }]);
    expect((await c.t.api('GET', `/api/agents/${ada.id}`)).body.spentMonthlyCents).toBe(2.5);
  });

  it('refuses an agent reporting for another agent (403) and a foreign company (404), writing nothing', async () => {
    const bob = await createAgent(c.t, companyId, { name: 'Bob' });
    const key = await createAgentKey(c.t, ada.id);
    const other = await createCompany(c.t, 'Other');
    const stranger = await createAgent(c.t, other, { name: 'Stranger' });
    await useKeyAndSettle(c.t, key);
    const before = c.t.snapshot();
    expectError(await postCost(c.t, companyId, costBody(bob.id), key), 403, 'not_own_agent');
    expectError(await postCost(c.t, other, costBody(ada.id), key), 404, 'not_found');
    expectError(await postCost(c.t, other, costBody(stranger.id), key), 404, 'not_found');
    for (const path of ['summary', 'by-agent', 'by-project']) {
      expectError(await c.t.api('GET', `/api/companies/${other}/costs/${path}`, { token: key }), 404, 'not_found');
    }
    expectError(await postCost(c.t, '00000000-0000-4000-8000-000000000000', costBody(ada.id)), 404, 'not_found');
    expect(c.t.snapshot()).toEqual(before);
  });

  it('validates the body with exact codes and writes nothing', async () => {
    const other = await createCompany(c.t, 'Other');
    const stranger = await createAgent(c.t, other, { name: 'Stranger' });
    const foreignProject = (await c.t.api('POST', `/api/companies/${other}/projects`, { body: { name: 'Theirs' } })).body.id;
    const foreignIssue = (await createIssue(c.t, other)).id;
    const before = c.t.snapshot();
    const { agentId: _omit, ...noAgent } = costBody(ada.id);
    const cases: [Record<string, unknown>, string, string][] = [
      [noAgent, 'validation_error', 'body.agentId'],
      [costBody(ada.id, { costCents: -0.01 }), 'validation_error', 'body.costCents'],
      [costBody(ada.id, { costCents: '1' }), 'validation_error', 'body.costCents'],
      [costBody(ada.id, { costCents: 100_000_001 }), 'validation_error', 'body.costCents'],
      [costBody(ada.id, { inputTokens: 1.5 }), 'validation_error', 'body.inputTokens'],
      [costBody(ada.id, { outputTokens: -1 }), 'validation_error', 'body.outputTokens'],
      [costBody(ada.id, { provider: '  ' }), 'validation_error', 'body.provider'],
      [costBody(ada.id, { agentId: 'ada' }), 'validation_error', 'body.agentId'],
      [costBody(ada.id, { projectId: 'p1' }), 'validation_error', 'body.projectId'],
      [costBody(ada.id, { issueId: 'not an issue' }), 'validation_error', 'body.issueId'],
      [costBody(ada.id, { occurredAt: '10 March 2025' }), 'validation_error', 'body.occurredAt'],
      [costBody(ada.id, { currency: 'EUR' }), 'validation_error', 'body.currency'],
      [costBody(ada.id, { occurredAt: '2025-03-10T12:05:00.001Z' }), 'occurred_at_in_future', 'body.occurredAt'],
      [costBody(stranger.id), 'invalid_agent', 'body.agentId'],
      [costBody('00000000-0000-4000-8000-000000000000'), 'invalid_agent', 'body.agentId'],
      [costBody(ada.id, { projectId: foreignProject }), 'invalid_project', 'body.projectId'],
      [costBody(ada.id, { issueId: foreignIssue }), 'invalid_issue', 'body.issueId'],
      [costBody(ada.id, { issueId: 'ACME-999' }), 'invalid_issue', 'body.issueId'],
    ];
    for (const [body, code, field] of cases) expectError(await postCost(c.t, companyId, body), 400, code, field);
    expect(c.t.snapshot()).toEqual(before);
  });

  it('accepts occurredAt up to 5 minutes ahead and normalizes offsets to UTC', async () => {
    expect((await postCost(c.t, companyId, costBody(ada.id, { occurredAt: '2025-03-10T12:05:00.000Z' }))).status).toBe(201);
    const res = await postCost(c.t, companyId, costBody(ada.id, { occurredAt: '2025-03-10T09:00:00+02:00' }));
    expect(res.body.occurredAt).toBe('2025-03-10T07:00:00.000Z');
  });
});

describe('issues, projects and the by-project breakdown', () => {
  it('takes the issue by UUID or identifier, defaults the project from the issue, and refuses a mismatch', async () => {
    const launch = (await c.t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Launch' } })).body;
    const docs = (await c.t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Docs' } })).body;
    await c.t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: 'Idle project' } });
    const issue = await createIssue(c.t, companyId, { projectId: launch.id });
    const byId = await postCost(c.t, companyId, costBody(ada.id, { issueId: issue.id, costCents: 3 }));
    expect(byId.body).toMatchObject({ issueId: issue.id, projectId: launch.id });
    const byIdentifier = await postCost(c.t, companyId, costBody(ada.id, { issueId: issue.identifier.toLowerCase(), costCents: 2 }));
    expect(byIdentifier.body).toMatchObject({ issueId: issue.id, projectId: launch.id });
    expect((await postCost(c.t, companyId, costBody(ada.id, { projectId: docs.id, costCents: 4 }))).status).toBe(201);
    await spend(c.t, companyId, ada.id, 0.5);

    const before = c.t.snapshot();
    expectError(await postCost(c.t, companyId, costBody(ada.id, { issueId: issue.id, projectId: docs.id })), 400, 'project_mismatch', 'body.projectId');
    expect(c.t.snapshot()).toEqual(before);

    const res = await c.t.api('GET', `/api/companies/${companyId}/costs/by-project`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { projectId: launch.id, name: 'Launch', spentCents: 5, inputTokens: 2000, outputTokens: 400, events: 2 },
      { projectId: docs.id, name: 'Docs', spentCents: 4, inputTokens: 1000, outputTokens: 200, events: 1 },
      { projectId: null, name: 'Unassigned', spentCents: 0.5, inputTokens: 1000, outputTokens: 200, events: 1 },
      { projectId: expect.any(String), name: 'Idle project', spentCents: 0, inputTokens: 0, outputTokens: 0, events: 0 },
    ]);
  });

  it('takes the run from a body runId', async () => {
    const runId = '11111111-1111-4111-8111-111111111111';
    expect((await postCost(c.t, companyId, costBody(ada.id, { runId }))).body.runId).toBe(runId);
  });
});

describe('reports', () => {
  it('lists every agent in by-agent, most spent first, with tokens, events and utilization', async () => {
    const bob = await createAgent(c.t, companyId, { name: 'Bob', budgetMonthlyCents: 1000 });
    const cy = await createAgent(c.t, companyId, { name: 'Cy' });
    await spend(c.t, companyId, bob.id, 250);
    await spend(c.t, companyId, bob.id, 0.25);
    await spend(c.t, companyId, ada.id, 3);
    const key = await createAgentKey(c.t, cy.id);
    const res = await c.t.api('GET', `/api/companies/${companyId}/costs/by-agent`, { token: key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      { agentId: bob.id, name: 'Bob', spentCents: 250.25, budgetMonthlyCents: 1000, utilization: 0.25025, inputTokens: 2000, outputTokens: 400, events: 2 },
      { agentId: ada.id, name: 'Ada', spentCents: 3, budgetMonthlyCents: 0, utilization: null, inputTokens: 1000, outputTokens: 200, events: 1 },
      { agentId: cy.id, name: 'Cy', spentCents: 0, budgetMonthlyCents: 0, utilization: null, inputTokens: 0, outputTokens: 0, events: 0 },
    ]);
  });

  it('summarizes the month against the company budget', async () => {
    const summary = () => c.t.api('GET', `/api/companies/${companyId}/costs/summary`);
    expect((await summary()).body).toEqual({
      month: '2025-03',
      windowStart: '2025-03-01T00:00:00.000Z',
      windowEnd: '2025-04-01T00:00:00.000Z',
      spentCents: 0,
      budgetMonthlyCents: 0,
      utilization: null,
      status: 'ok',
    });
    await c.t.api('PATCH', `/api/companies/${companyId}`, { body: { budgetMonthlyCents: 200 } });
    await spend(c.t, companyId, ada.id, 100);
    expect((await summary()).body).toMatchObject({ spentCents: 100, budgetMonthlyCents: 200, utilization: 0.5, status: 'ok' });
    await spend(c.t, companyId, ada.id, 60);
    expect((await summary()).body).toMatchObject({ spentCents: 160, utilization: 0.8, status: 'warning' });
    await spend(c.t, companyId, ada.id, 40);
    expect((await summary()).body).toMatchObject({ spentCents: 200, utilization: 1, status: 'exceeded' });
  });

  it('validates the month query and refuses other query parameters', async () => {
    for (const query of ['month=2025-13', 'month=2025-3', 'month=March', 'month=1969-12', 'since=2025-01']) {
      const res = await c.t.api('GET', `/api/companies/${companyId}/costs/summary?${query}`);
      expectError(res, 400, 'validation_error', 'query');
    }
  });

  it('documents the four routes in the OpenAPI document', async () => {
    const doc = (await c.t.api('GET', '/api/openapi.json')).body;
    for (const path of ['cost-events', 'costs/summary', 'costs/by-agent', 'costs/by-project']) {
      expect(Object.keys(doc.paths), path).toContain(`/api/companies/{companyId}/${path}`);
    }
  });
});
