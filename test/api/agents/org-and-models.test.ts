import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { MISSING_ID, createDraftAgent, expectError, startAgentsCore, useKeyAndSettle } from './helpers.js';

let t: TestCore;
let company: string;
beforeEach(async () => {
  t = await startAgentsCore();
  company = await createCompany(t, 'Acme');
});
afterEach(async () => {
  await t.close();
});

const org = (companyId: string, query = '', token?: string) => t.api('GET', `/api/companies/${companyId}/org${query}`, { token });

/** The tree reduced to names, for readable assertions. */
type Shape = [string, Shape[]];
const shape = (nodes: any[]): Shape[] => nodes.map((n) => [n.name, shape(n.reports)]);

describe('org chart', () => {
  it('returns a forest with reports nested, oldest first', async () => {
    const ceo = await createAgent(t, company, { name: 'Ceo', role: 'ceo', title: 'Chief' });
    const cto = await createAgent(t, company, { name: 'Cto', role: 'cto', reportsTo: ceo.id });
    const cmo = await createAgent(t, company, { name: 'Cmo', role: 'cmo', reportsTo: ceo.id });
    await createAgent(t, company, { name: 'Dev1', role: 'engineer', reportsTo: cto.id });
    await createAgent(t, company, { name: 'Dev2', role: 'engineer', reportsTo: cto.id });
    await createAgent(t, company, { name: 'Writer', role: 'writer', reportsTo: cmo.id });
    await createAgent(t, company, { name: 'Loner', role: 'contractor', adapterType: 'http', adapterConfig: { url: 'https://example.com' } });
    const other = await createCompany(t, 'Other');
    await createAgent(t, other, { name: 'Outsider' });

    const res = await org(company);
    expect(res.status).toBe(200);
    expect(shape(res.body)).toEqual([
      [
        'Ceo',
        [
          ['Cto', [['Dev1', []], ['Dev2', []]]],
          ['Cmo', [['Writer', []]]],
        ],
      ],
      ['Loner', []],
    ]);
    const root = res.body[0];
    expect(Object.keys(root).sort()).toEqual(['adapterType', 'id', 'name', 'reports', 'role', 'status', 'title', 'urlKey']);
    expect(root).toMatchObject({ id: ceo.id, name: 'Ceo', urlKey: 'ceo', role: 'ceo', title: 'Chief', status: 'idle', adapterType: 'process' });
    expect(res.body[1].adapterType).toBe('http');
    // No adapter configuration leaks into the chart.
    expect(res.text).not.toContain('adapterConfig');
  });

  it('excludes terminated agents unless includeTerminated=true', async () => {
    const ceo = await createAgent(t, company, { name: 'Ceo' });
    const cto = await createAgent(t, company, { name: 'Cto', reportsTo: ceo.id });
    await createAgent(t, company, { name: 'Dev', reportsTo: cto.id });
    const gone = await createAgent(t, company, { name: 'Gone', reportsTo: ceo.id });
    await t.api('POST', `/api/agents/${gone.id}/terminate`);
    await t.api('POST', `/api/agents/${cto.id}/terminate`);
    await t.api('POST', `/api/agents/${ceo.id}/pause`);
    createDraftAgent(t, company, 'Hire', ceo.id);

    const living = await org(company);
    expect(shape(living.body)).toEqual([['Ceo', [['Dev', []], ['Hire', []]]]]);
    expect(living.body[0].status).toBe('paused');
    expect(living.body[0].reports.map((n: any) => n.status)).toEqual(['idle', 'draft']);
    expect((await org(company, '?includeTerminated=false')).body).toEqual(living.body);

    const all = await org(company, '?includeTerminated=true');
    expect(all.status).toBe(200);
    // Terminated agents keep their place under their last manager; their reports moved up.
    expect(shape(all.body)).toEqual([['Ceo', [['Cto', []], ['Dev', []], ['Gone', []], ['Hire', []]]]]);
    expect(all.body[0].reports.filter((n: any) => n.status === 'terminated').map((n: any) => n.name)).toEqual(['Cto', 'Gone']);
  });

  it('is an empty forest for a company without agents', async () => {
    const res = await org(company);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('refuses unknown or malformed query parameters, writing nothing', async () => {
    await createAgent(t, company);
    const before = t.snapshot();
    for (const query of ['?foo=1', '?includeTerminated=yes', '?includeTerminated=1', '?includeTerminated=true&depth=2']) {
      const res = await org(company, query);
      expectError(res, 400, 'validation_error');
      // The message names the offending parameter.
      const name = query.includes('depth') ? 'depth' : query.includes('foo') ? 'foo' : 'includeTerminated';
      expect(res.body.error).toMatch(new RegExp(`^(query|querystring)\\.${name}:`));
    }
    expectError(await org(MISSING_ID), 404, 'not_found');
    expectError(await org('nope'), 400, 'validation_error', 'params.companyId');
    expect(t.snapshot()).toEqual(before);
  });

  it('shows an agent its own company\u2019s chart and hides others with a plain 404', async () => {
    const agent = await createAgent(t, company);
    const other = await createCompany(t, 'Other');
    await createAgent(t, other, { name: 'Outsider' });
    const key = await createAgentKey(t, agent.id);
    const mine = await org(company, '', key);
    expect(mine.status).toBe(200);
    expect(shape(mine.body)).toEqual([['Ada', []]]);
    const foreign = await org(other, '', key);
    const missing = await org(MISSING_ID, '', key);
    expectError(foreign, 404, 'not_found');
    expect(foreign.body).toEqual(missing.body);
  });
});

describe('adapter models', () => {
  const models = (companyId: string, type: string, token?: string) =>
    t.api('GET', `/api/companies/${companyId}/adapters/${type}/models`, { token });

  it('lists the models of an installed adapter type', async () => {
    for (const type of ['process', 'http']) {
      const res = await models(company, type);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual([]);
    }
  });

  it('answers 404 unknown_adapter_type for a type that is not installed', async () => {
    const before = t.snapshot();
    for (const type of ['vendor_z_local', 'Process', 'nope']) {
      const res = await models(company, type);
      expectError(res, 404, 'unknown_adapter_type');
      expect(res.body.error).toContain(type);
    }
    expectError(await models(company, 'x'.repeat(65)), 400, 'validation_error', 'params.adapterType');
    expect(t.snapshot()).toEqual(before);
  });

  it('checks the company first: missing, malformed or foreign companies get 404 / 400', async () => {
    const other = await createCompany(t, 'Other');
    const key = await createAgentKey(t, (await createAgent(t, company)).id);
    await useKeyAndSettle(t, key);
    const before = t.snapshot();
    expect((await models(company, 'process', key)).status).toBe(200);
    const foreign = await models(other, 'process', key);
    const missing = await models(MISSING_ID, 'process', key);
    expectError(foreign, 404, 'not_found');
    expect(foreign.body).toEqual(missing.body);
    // The foreign company is not revealed even for an unknown type.
    expectError(await models(other, 'nope', key), 404, 'not_found');
    expectError(await models(MISSING_ID, 'process'), 404, 'not_found');
    expectError(await models('nope', 'process'), 400, 'validation_error', 'params.companyId');
    expect(t.snapshot()).toEqual(before);
  });
});
