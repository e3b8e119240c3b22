import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, expectError, problemPaths, startAgentsCore } from './helpers.js';

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

describe('get and list agents', () => {
  it('returns the chain of command from the direct manager upward', async () => {
    const ceo = await createAgent(t, company, { name: 'Ceo', role: 'ceo' });
    const cto = await createAgent(t, company, { name: 'Cto', role: 'cto', reportsTo: ceo.id });
    const lead = await createAgent(t, company, { name: 'Lead', role: 'lead', reportsTo: cto.id });
    const dev = await createAgent(t, company, { name: 'Dev', role: 'engineer', reportsTo: lead.id });
    const got = await t.api('GET', `/api/agents/${dev.id}`);
    expect(got.status).toBe(200);
    expect(got.body.chainOfCommand).toEqual([
      { id: lead.id, name: 'Lead', role: 'lead' },
      { id: cto.id, name: 'Cto', role: 'cto' },
      { id: ceo.id, name: 'Ceo', role: 'ceo' },
    ]);
    expect((await t.api('GET', `/api/agents/${ceo.id}`)).body.chainOfCommand).toEqual([]);
    // The list computes the same chains.
    const list = await t.api('GET', `/api/companies/${company}/agents`);
    const byId = new Map<string, any>(list.body.map((a: any) => [a.id, a]));
    expect(byId.get(dev.id).chainOfCommand).toEqual(got.body.chainOfCommand);
    expect(byId.get(lead.id).chainOfCommand.map((l: any) => l.id)).toEqual([cto.id, ceo.id]);
    // A renamed manager shows up renamed in the chain.
    expect((await patch(cto.id, { name: 'Chief Tech', role: 'cto2' })).status).toBe(200);
    expect((await t.api('GET', `/api/agents/${dev.id}`)).body.chainOfCommand[1]).toEqual({ id: cto.id, name: 'Chief Tech', role: 'cto2' });
  });

  it('gives agents sharing a manager the same chain, and each agent of a forged cycle its own, as its GET does', async () => {
    const ceo = await createAgent(t, company, { name: 'Ceo', role: 'ceo' });
    const lead = await createAgent(t, company, { name: 'Lead', role: 'lead', reportsTo: ceo.id });
    const devs = [await createAgent(t, company, { name: 'Dev 1', reportsTo: lead.id }), await createAgent(t, company, { name: 'Dev 2', reportsTo: lead.id })];
    // The service never lets a cycle happen; a forged database can hold one: ceo -> dev 1 -> lead -> ceo.
    t.core.database.sqlite.prepare('UPDATE agents SET reports_to = ? WHERE id = ?').run(devs[0]!.id, ceo.id);
    const list = (await t.api('GET', `/api/companies/${company}/agents`)).body as any[];
    for (const agent of list) expect(agent.chainOfCommand).toEqual((await t.api('GET', `/api/agents/${agent.id}`)).body.chainOfCommand);
    const chainOf = (id: string) => list.find((a) => a.id === id).chainOfCommand.map((l: any) => l.name);
    // Both developers report to the lead; the first is in the lead's chain, the second is not.
    expect(chainOf(devs[0]!.id)).toEqual(['Lead', 'Ceo']);
    expect(chainOf(devs[1]!.id)).toEqual(['Lead', 'Ceo', 'Dev 1']);
    expect(chainOf(lead.id)).toEqual(['Ceo', 'Dev 1']);
  });

  it('lists every agent of the company, oldest first, terminated ones included, and no other company', async () => {
    const a = await createAgent(t, company, { name: 'A' });
    const b = await createAgent(t, company, { name: 'B' });
    const c = await createAgent(t, company, { name: 'C' });
    const other = await createCompany(t, 'Other');
    await createAgent(t, other, { name: 'X' });
    expect((await t.api('POST', `/api/agents/${b.id}/terminate`)).status).toBe(200);
    const list = await t.api('GET', `/api/companies/${company}/agents`);
    expect(list.status).toBe(200);
    expect(list.body.map((x: any) => [x.id, x.status])).toEqual([
      [a.id, 'idle'],
      [b.id, 'terminated'],
      [c.id, 'idle'],
    ]);
    for (const agent of list.body) {
      expect(agent.spentMonthlyCents).toBe(0);
      expect(agent.companyId).toBe(company);
      // The list item equals the single-agent view.
      expect((await t.api('GET', `/api/agents/${agent.id}`)).body).toEqual(agent);
    }
    expect((await t.api('GET', `/api/companies/${other}/agents`)).body.map((x: any) => x.name)).toEqual(['X']);
  });

  it('lists an empty company as []', async () => {
    const res = await t.api('GET', `/api/companies/${company}/agents`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses any query parameter on the list, naming it', async () => {
    await createAgent(t, company);
    const before = t.snapshot();
    for (const [query, name] of [
      ['?limit=10', 'limit'],
      ['?status=idle', 'status'],
      ['?includeTerminated=true', 'includeTerminated'],
      ['?foo', 'foo'],
      ['?x=1&y=2', 'x'],
    ] as const) {
      const res = await t.api('GET', `/api/companies/${company}/agents${query}`);
      expectError(res, 400, 'unsupported_query_parameter', `query.${name}`);
      expect(problemPaths(res)).toContain(`query.${name}`);
    }
    expect(problemPaths(await t.api('GET', `/api/companies/${company}/agents?x=1&y=2`))).toEqual(['query.x', 'query.y']);
    expect(t.snapshot()).toEqual(before);
  });

  it('answers 404 for a missing agent or company and 400 for a malformed id', async () => {
    const before = t.snapshot();
    expectError(await t.api('GET', `/api/agents/${MISSING_ID}`), 404, 'not_found');
    expectError(await t.api('GET', '/api/agents/not-a-uuid'), 400, 'validation_error', 'params.agentId');
    expectError(await t.api('GET', `/api/companies/${MISSING_ID}/agents`), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
  });

  it('needs a credential for every agents route, and writes nothing without one', async () => {
    const agent = await createAgent(t, company);
    const before = t.snapshot();
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/agents/${agent.id}`],
      ['GET', '/api/agents/me'],
      ['GET', `/api/companies/${company}/agents`],
      ['POST', `/api/companies/${company}/agents`, { name: 'X', adapterType: 'process', adapterConfig: { command: 'x' } }],
      ['PATCH', `/api/agents/${agent.id}`, { title: 'x' }],
      ['POST', `/api/agents/${agent.id}/pause`],
      ['POST', `/api/agents/${agent.id}/terminate`],
      ['POST', `/api/agents/${agent.id}/keys`, {}],
      ['GET', `/api/agents/${agent.id}/keys`],
      ['GET', `/api/agents/${agent.id}/config-revisions`],
      ['GET', `/api/companies/${company}/org`],
      ['GET', `/api/companies/${company}/adapters/process/models`],
    ];
    for (const [method, url, body] of routes) {
      for (const token of [null, 'hcb_wrong', 'hck_not-a-real-key', '']) {
        expectError(await t.api(method, url, { token, body }), 401, 'unauthorized');
      }
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('a stored configuration that is not JSON fails the list with the error contract, never a broken body', async () => {
    // The list embeds each configuration as JSON text written by SQLite (agents/present.ts): text
    // that is not JSON (only a forged database gets there) must fail, as the single GET does. A
    // server of its own without the suites' response checks, which would catch a broken body
    // themselves: this is what a user's server answers.
    const saved = process.env.HEADCOUNT_CHECK_RESPONSES;
    delete process.env.HEADCOUNT_CHECK_RESPONSES;
    const plain = await startAgentsCore().finally(() => {
      process.env.HEADCOUNT_CHECK_RESPONSES = saved;
    });
    try {
      const own = await createCompany(plain, 'Forgery');
      const agent = await createAgent(plain, own, { name: 'Forged' });
      plain.core.database.sqlite.prepare('UPDATE agents SET adapter_config = ? WHERE id = ?').run('{"command": "echo", broken', agent.id);
      for (const url of [`/api/companies/${own}/agents`, `/api/agents/${agent.id}`]) {
        const res = await plain.api('GET', url);
        expect(res.status, url).toBe(500);
        expect(JSON.parse(res.text), url).toMatchObject({ code: expect.any(String), error: expect.any(String) });
      }
    } finally {
      await plain.close();
    }
  });
});
