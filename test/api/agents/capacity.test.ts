import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentKey, type TestCore } from '../../helpers/core.js';
import { allArrayPages } from '../../helpers/array-pages.js';
import { FIXED_LIMITS } from '../../../main/core/limits/settings.js';
import { startWorld, hireBody, type World } from '../approvals/helpers.js';
import { expectError } from './helpers.js';

// The agent list, the org chart and the spend per agent or project answer every row at once (spec
// 4.2, 4.5), so a company holds a bounded number of agents and projects (issue 17: no unbounded list).

const MAX = FIXED_LIMITS.agentsPerCompany;
let w: World;
let t: TestCore;
beforeEach(async () => {
  w = await startWorld();
  t = w.t;
});
afterEach(async () => {
  await t.close();
});

/** Fills the company up to `total` agents straight in the database (1,000 over HTTP is slow). */
function fillTo(companyId: string, total: number) {
  const sqlite = t.core.database.sqlite;
  const have = (sqlite.prepare('SELECT count(*) AS n FROM agents WHERE company_id = ?').get(companyId) as { n: number }).n;
  const insert = sqlite.prepare(`INSERT INTO agents (id, company_id, name, url_key, role, title, capabilities, status, adapter_type, adapter_config, budget_monthly_cents, created_at, updated_at)
    VALUES (?, ?, ?, ?, 'engineer', '', '', ?, 'process', '{"command":"echo"}', 0, ?, ?)`);
  const at = new Date().toISOString();
  sqlite.transaction(() => {
    // Half of them terminated: they stay in the list, so they count.
    for (let i = have; i < total; i++) insert.run(randomUUID(), companyId, `Filler ${i}`, `filler-${i}`, i % 2 ? 'terminated' : 'idle', at, at);
  })();
}

const newAgent = (name: string) => t.api('POST', `/api/companies/${w.company}/agents`, { body: { name, role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } } });

describe('agents per company', () => {
  it('are shown with the fixed limits', async () => {
    const settings = await t.api('GET', '/api/settings');
    expect(settings.body.limits).toMatchObject({ agentsPerCompany: MAX, projectsPerCompany: FIXED_LIMITS.projectsPerCompany });
  });

  it('stop at the limit, terminated ones included: a new agent or a hire past it is a 409 and writes nothing', async () => {
    fillTo(w.company, MAX - 1);
    const last = await newAgent('The last one');
    expect(last.status, last.text).toBe(201);

    const before = t.snapshot();
    const refused = await newAgent('One too many');
    expectError(refused, 409, 'agent_limit_reached');
    expect(refused.body.error).toContain(`at most ${MAX} agents`);
    expect(refused.body.details).toEqual({ max: MAX });
    // A hire makes its draft agent the same way, so it is refused the same way, approval included.
    expectError(await t.api('POST', `/api/companies/${w.company}/agent-hires`, { body: hireBody(w), token: w.ceoKey }), 409, 'agent_limit_reached');
    expect(t.snapshot()).toEqual(before);

    // The whole list is still one answer, and another company is not affected.
    const list = await t.api('GET', `/api/companies/${w.company}/agents`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(MAX);
    const elsewhere = await t.api('POST', `/api/companies/${w.other}/agents`, { body: { name: 'Elsewhere', role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } } });
    expect(elsewhere.status, elsewhere.text).toBe(201);
  }, 30_000);
});

describe('projects per company', () => {
  it('stop at the limit: one more is a 409 that writes nothing', async () => {
    const sqlite = t.core.database.sqlite;
    const insert = sqlite.prepare("INSERT INTO projects (id, company_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)");
    const at = new Date().toISOString();
    const most = FIXED_LIMITS.projectsPerCompany;
    sqlite.transaction(() => {
      for (let i = 0; i < most - 1; i++) insert.run(randomUUID(), w.company, `Project ${i}`, at, at);
    })();
    const last = await t.api('POST', `/api/companies/${w.company}/projects`, { body: { name: 'The last one' } });
    expect(last.status, last.text).toBe(201);
    const before = t.snapshot();
    const refused = await t.api('POST', `/api/companies/${w.company}/projects`, { body: { name: 'One too many' } });
    expectError(refused, 409, 'project_limit_reached');
    expect(refused.body.details).toEqual({ max: most });
    expect(t.snapshot()).toEqual(before);
    // The spend per project still answers every project in one list.
    const spend = await t.api('GET', `/api/companies/${w.company}/costs/by-project`);
    expect(spend.status).toBe(200);
    expect(spend.body).toHaveLength(most);
  }, 30_000);
});

describe('agent keys', () => {
  it('page newest first with a cursor, revoked keys included', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      await createAgentKey(t, w.engineer.id);
      const keys = await t.api('GET', `/api/agents/${w.engineer.id}/keys`);
      created.unshift(keys.body[0].id);
    }
    const all = (await t.api('GET', `/api/agents/${w.engineer.id}/keys`)).body as { id: string }[];
    // startWorld made one key before the five; the list is newest first.
    expect(all.map((k) => k.id).slice(0, 5)).toEqual(created);
    expect(all).toHaveLength(6);
    expect((await t.api('DELETE', `/api/agents/${w.engineer.id}/keys/${created[2]}`)).status).toBe(200);

    const { items: seen } = await allArrayPages(t, `/api/agents/${w.engineer.id}/keys`, 4);
    expect(seen.map((k) => k.id)).toEqual(all.map((k) => k.id));
    expect(seen.find((k) => k.id === created[2])!.revokedAt).not.toBeNull();

    expectError(await t.api('GET', `/api/agents/${w.engineer.id}/keys?after=nonsense`), 400, 'invalid_cursor');
    expectError(await t.api('GET', `/api/agents/${w.engineer.id}/keys?limit=501`), 400, 'validation_error');
    expectError(await t.api('GET', `/api/agents/${w.engineer.id}/keys?status=active`), 400, 'validation_error');
  });
});
