import { agentCli } from '../../helpers/agent-clis.js';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';

const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const CLAUDE = agentCli('claude');
let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const route = (company: string, type: string) => `/api/companies/${company}/adapters/${type}/test-environment`;

describe('POST /api/companies/{id}/adapters/{type}/test-environment', () => {
  it('answers the spec shape: pass, or fail exactly when a check is an error', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const ok = await t.api('POST', route(company, 'process'), { body: { adapterConfig: { command: REPLAY, cwd: t.home } } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      adapterType: 'process',
      status: 'pass',
      checks: [
        { level: 'info', code: 'cwd_exists', message: expect.any(String) },
        { level: 'info', code: 'cli_detected', message: expect.stringContaining(REPLAY) },
        // Whether this agent's processes will run inside the OS sandbox (info here, warn without bwrap).
        { level: expect.stringMatching(/^(info|warn)$/), code: expect.stringMatching(/^sandbox_(available|unavailable)$/), message: expect.any(String) },
      ],
      readiness: { installed: true, signedIn: null, ready: true },
      testedAt: expect.any(String),
    });
    const missing = await t.api('POST', route(company, 'process'), { body: { adapterConfig: { command: 'no-such-agent-cli-xyz' } } });
    expect(missing.body).toMatchObject({ status: 'fail', checks: [{ level: 'info' }, { level: 'error', code: 'cli_not_found', hint: expect.any(String) }, { code: expect.stringMatching(/^sandbox_/) }] });
  });

  it('runs a CLI adapter\'s own test: vendor_a_local finds the installed Claude Code and its version', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const cwd = path.join(t.home, 'agent-work');
    const res = await t.api('POST', route(company, 'vendor_a_local'), { body: { adapterConfig: { command: CLAUDE, cwd } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ adapterType: 'vendor_a_local', status: 'pass' });
    const codes = res.body.checks.map((c: any) => c.code);
    expect(codes.slice(0, 3)).toEqual(['cwd_created', 'cli_detected', 'cli_version']);
    expect(res.body.checks[2].message).toMatch(/\(Claude Code\)/);
  });

  it('validates the configuration with the adapter schema (a relative cwd is refused by the schema)', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const res = await t.api('POST', route(company, 'process'), { body: { adapterConfig: { command: 'sh', cwd: 'relative/dir' } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('body.adapterConfig.cwd');
    expect((await t.api('POST', route(company, 'process'), { body: { adapterConfig: { cwd: '/tmp' } } })).status).toBe(400);
  });

  it('is 404 adapter_not_found for an unknown type, and company-scoped for agents', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const other = await createCompany(t, 'Other');
    const unknown = await t.api('POST', route(company, 'no_such_type'), { body: { adapterConfig: {} } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('adapter_not_found');
    const key = await createAgentKey(t, (await createAgent(t, company)).id);
    expect((await t.api('POST', route(company, 'process'), { token: key, body: { adapterConfig: { command: 'sh' } } })).body.status).toBe('pass');
    expect((await t.api('POST', route(other, 'process'), { token: key, body: { adapterConfig: { command: 'sh' } } })).status).toBe(404);
    expect((await t.api('POST', route(company, 'process'), { token: null, body: { adapterConfig: { command: 'sh' } } })).status).toBe(401);
  });
});
