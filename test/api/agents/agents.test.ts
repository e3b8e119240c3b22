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

const post = (companyId: string, body: unknown) => t.api('POST', `/api/companies/${companyId}/agents`, { body });
const SECRET_ID = '6f1c2b9e-3d4a-4f5b-8c7d-9e0a1b2c3d4e';

describe('create agent (board)', () => {
  it('creates an idle agent with defaults and the process adapter defaults applied', async () => {
    const res = await post(company, { name: 'Ada Lovelace', adapterType: 'process', adapterConfig: { command: 'echo' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      companyId: company,
      name: 'Ada Lovelace',
      urlKey: 'ada-lovelace',
      role: '',
      title: '',
      reportsTo: null,
      capabilities: '',
      status: 'idle',
      pauseReason: null,
      adapterType: 'process',
      adapterConfig: { command: 'echo', timeoutSec: 300, graceMs: 10000 },
      budgetMonthlyCents: 0,
      spentMonthlyCents: 0,
      chainOfCommand: [],
      terminatedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.body.createdAt).toBe(res.body.updatedAt);
    expect(Number.isNaN(Date.parse(res.body.createdAt))).toBe(false);
    // What was returned is what is stored.
    const got = await t.api('GET', `/api/agents/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('defaults adapterConfig to {} and then demands what the adapter needs', async () => {
    const before = t.snapshot();
    const res = await post(company, { name: 'Ada', adapterType: 'process' });
    expectError(res, 400, 'validation_error', 'body.adapterConfig.command');
    expect(t.snapshot()).toEqual(before);
  });

  it('keeps every given field, trimmed, and explicit config values over defaults', async () => {
    const manager = await createAgent(t, company, { name: 'Boss' });
    const res = await post(company, {
      name: '  Grace Hopper  ',
      role: ' engineer ',
      title: 'Rear Admiral',
      reportsTo: manager.id,
      capabilities: 'COBOL, compilers',
      adapterType: 'process',
      adapterConfig: { command: '/usr/bin/env', args: ['node', 'agent.js'], cwd: '/srv/agents', timeoutSec: 60, graceMs: 0, promptTemplate: 'Work on {{taskTitle}}' },
      budgetMonthlyCents: 2500,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Grace Hopper',
      urlKey: 'grace-hopper',
      role: 'engineer',
      title: 'Rear Admiral',
      reportsTo: manager.id,
      capabilities: 'COBOL, compilers',
      budgetMonthlyCents: 2500,
      chainOfCommand: [{ id: manager.id, name: 'Boss', role: 'ceo' }],
    });
    expect(res.body.adapterConfig).toEqual({
      command: '/usr/bin/env',
      args: ['node', 'agent.js'],
      cwd: '/srv/agents',
      timeoutSec: 60,
      graceMs: 0,
      promptTemplate: 'Work on {{taskTitle}}',
    });
  });

  it('applies the http adapter defaults', async () => {
    const res = await post(company, { name: 'Hook', adapterType: 'http', adapterConfig: { url: 'https://example.com/agent' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.adapterConfig).toEqual({ url: 'https://example.com/agent', method: 'POST', timeoutSec: 30 });
  });

  it('derives urlKey from the name, then adds -2, -3 on collision', async () => {
    const a = await createAgent(t, company, { name: 'Ada Lovelace (CEO)' });
    expect(a.urlKey).toBe('ada-lovelace-ceo');
    const accented = await createAgent(t, company, { name: 'Zoë Ærø Ünïcödé' });
    expect(accented.urlKey).toMatch(/^zoe-/);
    // Different names, same slug.
    const b = await createAgent(t, company, { name: 'ada  lovelace -- ceo' });
    expect(b.urlKey).toBe('ada-lovelace-ceo-2');
    const c = await createAgent(t, company, { name: 'Ada Lovelace, CEO' });
    expect(c.urlKey).toBe('ada-lovelace-ceo-3');
    // A name with nothing sluggable still gets a valid key.
    const d = await createAgent(t, company, { name: '日本' });
    expect(d.urlKey).toBe('agent');
    const e = await createAgent(t, company, { name: '!!!' });
    expect(e.urlKey).toBe('agent-2');
  });

  it('derives urlKey per company', async () => {
    const other = await createCompany(t, 'Other');
    expect((await createAgent(t, company, { name: 'Ada' })).urlKey).toBe('ada');
    expect((await createAgent(t, other, { name: 'Ada' })).urlKey).toBe('ada');
  });

  it('takes an explicit urlKey, steers derived keys around it, and refuses a taken one', async () => {
    const a = await createAgent(t, company, { name: 'Ada', urlKey: 'boss' });
    expect(a.urlKey).toBe('boss');
    const b = await createAgent(t, company, { name: 'Boss' });
    expect(b.urlKey).toBe('boss-2');
    const before = t.snapshot();
    expectError(await post(company, { name: 'Carol', urlKey: 'boss', adapterType: 'process', adapterConfig: { command: 'x' } }), 409, 'url_key_taken');
    expectError(await post(company, { name: 'Carol', urlKey: 'boss-2', adapterType: 'process', adapterConfig: { command: 'x' } }), 409, 'url_key_taken');
    expect(t.snapshot()).toEqual(before);
  });

  it('rejects urlKeys that are not shortnames', async () => {
    const before = t.snapshot();
    for (const urlKey of ['Boss', 'boss-', '-boss', 'bo ss', 'bo_ss', '', 'a'.repeat(65), '01234567-89ab-cdef-0123-456789abcdef']) {
      const res = await post(company, { name: 'Carol', urlKey, adapterType: 'process', adapterConfig: { command: 'x' } });
      expectError(res, 400, 'validation_error', 'body.urlKey');
    }
    expect(t.snapshot()).toEqual(before);
  });

  it('accepts a secret reference as an env value and fills in version latest', async () => {
    // A real secret with three versions: references are checked against the company's secrets.
    const created = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'API_TOKEN', value: 'v1' } });
    for (const value of ['v2', 'v3']) await t.api('PATCH', `/api/secrets/${created.body.id}`, { body: { value } });
    const SECRET_ID = created.body.id;
    const ref = { type: 'secret_ref', secretId: SECRET_ID, version: 'latest' };
    const res = await post(company, {
      name: 'Ada',
      adapterType: 'process',
      adapterConfig: { command: 'run', env: { API_TOKEN: ref, PLAIN: 'value', PINNED: { type: 'secret_ref', secretId: SECRET_ID, version: 3 } } },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.adapterConfig.env).toEqual({ API_TOKEN: ref, PLAIN: 'value', PINNED: { type: 'secret_ref', secretId: SECRET_ID, version: 3 } });
    const defaulted = await post(company, {
      name: 'Bob',
      adapterType: 'process',
      adapterConfig: { command: 'run', env: { API_TOKEN: { type: 'secret_ref', secretId: SECRET_ID } } },
    });
    expect(defaulted.status, defaulted.text).toBe(201);
    expect(defaulted.body.adapterConfig.env.API_TOKEN).toEqual(ref);
  });

  it('refuses an unknown adapter type', async () => {
    const before = t.snapshot();
    const res = await post(company, { name: 'Ada', adapterType: 'vendor_z_local', adapterConfig: { command: 'x' } });
    expectError(res, 400, 'unknown_adapter_type', 'body.adapterType');
    expect(problemPaths(res)).toEqual(['body.adapterType']);
    expect(res.body.details.problems[0].message).toContain('process');
    // Not even shaped like a type key.
    expectError(await post(company, { name: 'Ada', adapterType: 'Process', adapterConfig: { command: 'x' } }), 400, 'validation_error', 'body.adapterType');
    expect(t.snapshot()).toEqual(before);
  });

  it('refuses invalid adapter configuration, naming the field, and writes nothing', async () => {
    const before = t.snapshot();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'body.adapterConfig.command'],
      [{ command: '' }, 'body.adapterConfig.command'],
      [{ command: 42 }, 'body.adapterConfig.command'],
      [{ command: 'x', cwd: 'relative/dir' }, 'body.adapterConfig.cwd'],
      [{ command: 'x', cwd: './here' }, 'body.adapterConfig.cwd'],
      [{ command: 'x', env: { SERVICE_FOO: 'a' } }, 'body.adapterConfig.env.SERVICE_FOO'],
      [{ command: 'x', env: { service_api_key: 'a' } }, 'body.adapterConfig.env.service_api_key'],
      [{ command: 'x', env: { '1BAD': 'a' } }, 'body.adapterConfig.env.1BAD'],
      [{ command: 'x', env: { OK: 42 } }, 'body.adapterConfig.env.OK'],
      [{ command: 'x', env: { OK: { type: 'secret_ref', secretId: 'not-a-uuid' } } }, 'body.adapterConfig.env.OK.secretId'],
      [{ command: 'x', env: { OK: { type: 'secret_ref', secretId: SECRET_ID, version: 0 } } }, 'body.adapterConfig.env.OK.version'],
      [{ command: 'x', env: { OK: { type: 'secret', secretId: SECRET_ID } } }, 'body.adapterConfig.env.OK'],
      [{ command: 'x', unknownKey: true }, 'body.adapterConfig.unknownKey'],
      [{ command: 'x', timeoutSec: 0 }, 'body.adapterConfig.timeoutSec'],
      [{ command: 'x', timeoutSec: 1.5 }, 'body.adapterConfig.timeoutSec'],
      [{ command: 'x', graceMs: -1 }, 'body.adapterConfig.graceMs'],
      [{ command: 'x', args: 'not-an-array' }, 'body.adapterConfig.args'],
    ];
    for (const [adapterConfig, field] of cases) {
      const res = await post(company, { name: 'Ada', adapterType: 'process', adapterConfig });
      expectError(res, 400, 'validation_error', field);
      expect(problemPaths(res)).toContain(field);
    }
    expectError(await post(company, { name: 'Ada', adapterType: 'http', adapterConfig: { url: 'ftp://example.com' } }), 400, 'validation_error', 'body.adapterConfig.url');
    expectError(await post(company, { name: 'Ada', adapterType: 'http', adapterConfig: { command: 'echo' } }), 400, 'validation_error', 'body.adapterConfig');
    expectError(await post(company, { name: 'Ada', adapterType: 'process', adapterConfig: ['echo'] }), 400, 'validation_error', 'body.adapterConfig');
    expect(t.snapshot()).toEqual(before);
  });

  it('says why a reserved env name is refused', async () => {
    const res = await post(company, { name: 'Ada', adapterType: 'process', adapterConfig: { command: 'x', env: { SERVICE_API_KEY: 'stolen' } } });
    expectError(res, 400, 'validation_error', 'body.adapterConfig.env.SERVICE_API_KEY');
    // The message gives the reason, not just "invalid key".
    expect(res.body.error).toMatch(/SERVICE_\* names are set by Headcount/);
    // The refused value is not echoed back.
    expect(res.text).not.toContain('stolen');
  });

  it('rejects malformed bodies, naming the field, and writes nothing', async () => {
    const before = t.snapshot();
    const base = { name: 'Ada', adapterType: 'process', adapterConfig: { command: 'x' } };
    const cases: [unknown, string][] = [
      [{ ...base, name: undefined }, 'body.name'],
      [{ ...base, name: '   ' }, 'body.name'],
      [{ ...base, name: 7 }, 'body.name'],
      [{ ...base, name: 'x'.repeat(201) }, 'body.name'],
      [{ ...base, adapterType: undefined }, 'body.adapterType'],
      [{ ...base, role: 'r'.repeat(201) }, 'body.role'],
      [{ ...base, title: 5 }, 'body.title'],
      [{ ...base, reportsTo: 'boss' }, 'body.reportsTo'],
      [{ ...base, budgetMonthlyCents: -1 }, 'body.budgetMonthlyCents'],
      [{ ...base, budgetMonthlyCents: 0.5 }, 'body.budgetMonthlyCents'],
      [{ ...base, budgetMonthlyCents: '100' }, 'body.budgetMonthlyCents'],
      [{ ...base, status: 'running' }, 'body.status'],
      [{ ...base, companyId: company }, 'body.companyId'],
      [{ ...base, spentMonthlyCents: 0 }, 'body.spentMonthlyCents'],
    ];
    for (const [body, field] of cases) expectError(await post(company, body), 400, 'validation_error', field);
    expectError(await t.api('POST', `/api/companies/${company}/agents`, { raw: '{"name":', contentType: 'application/json' }), 400, 'invalid_json');
    expectError(await t.api('POST', `/api/companies/${company}/agents`, { raw: 'name=Ada', contentType: 'text/plain' }), 400, 'unsupported_media_type');
    expectError(await post('not-a-uuid', base), 400, 'validation_error', 'params.companyId');
    expectError(await post(MISSING_ID, base), 404, 'not_found');
    expect(t.snapshot()).toEqual(before);
  });

  it('refuses agents in an archived company', async () => {
    expect((await t.api('POST', `/api/companies/${company}/archive`)).status).toBe(200);
    const before = t.snapshot();
    expectError(await post(company, { name: 'Ada', adapterType: 'process', adapterConfig: { command: 'x' } }), 409, 'company_archived');
    expect(t.snapshot()).toEqual(before);
  });

  it('keeps names unique among living agents of a company, case-insensitively', async () => {
    const first = await createAgent(t, company, { name: 'Ada' });
    const before = t.snapshot();
    for (const name of ['Ada', 'ada', 'ADA', '  aDa  ']) {
      expectError(await post(company, { name, adapterType: 'process', adapterConfig: { command: 'x' } }), 409, 'agent_name_taken');
    }
    expect(t.snapshot()).toEqual(before);

    // Another company may use the name.
    const other = await createCompany(t, 'Other');
    expect((await post(other, { name: 'Ada', adapterType: 'process', adapterConfig: { command: 'x' } })).status).toBe(201);

    // Once the first Ada is terminated, the name is free again (the shortname is not).
    expect((await t.api('POST', `/api/agents/${first.id}/terminate`)).status).toBe(200);
    const second = await post(company, { name: 'ada', adapterType: 'process', adapterConfig: { command: 'x' } });
    expect(second.status, second.text).toBe(201);
    expect(second.body.urlKey).toBe('ada-2');
    // ...and taken again by the living one.
    expectError(await post(company, { name: 'ADA', adapterType: 'process', adapterConfig: { command: 'x' } }), 409, 'agent_name_taken');
  });

  it('refuses a manager that is not a living agent of the same company', async () => {
    const other = await createCompany(t, 'Other');
    const foreign = await createAgent(t, other, { name: 'Foreign' });
    const gone = await createAgent(t, company, { name: 'Gone' });
    expect((await t.api('POST', `/api/agents/${gone.id}/terminate`)).status).toBe(200);
    const before = t.snapshot();
    for (const reportsTo of [foreign.id, MISSING_ID, gone.id]) {
      const res = await post(company, { name: 'Ada', reportsTo, adapterType: 'process', adapterConfig: { command: 'x' } });
      expectError(res, 400, 'invalid_reports_to', 'body.reportsTo');
      expect(problemPaths(res)).toEqual(['body.reportsTo']);
    }
    expect(t.snapshot()).toEqual(before);
    // reportsTo: null is a root agent.
    const root = await post(company, { name: 'Root', reportsTo: null, adapterType: 'process', adapterConfig: { command: 'x' } });
    expect(root.status).toBe(201);
    expect(root.body.reportsTo).toBeNull();
  });
});

