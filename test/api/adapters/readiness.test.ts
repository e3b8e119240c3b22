import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCli } from '../../helpers/agent-clis.js';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';

// "Installed", "signed in" and "ready" are three answers: each real CLI is checked with a fake HOME
// holding no credential (installed, not signed in, never ready, with the sign-in command), then with
// the file its own login writes (ready).
let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const route = (company: string, type: string) => `/api/companies/${company}/adapters/${type}/test-environment`;

interface Case {
  type: string;
  bin: Parameters<typeof agentCli>[0];
  /** Where the CLI's own login leaves its credential, relative to HOME. */
  credential: string;
  signIn: RegExp;
  extraConfig?: Record<string, unknown>;
}

const CASES: Case[] = [
  { type: 'vendor_a_local', bin: 'claude', credential: '.claude/.credentials.json', signIn: /`claude`.*\/login.*ANTHROPIC_API_KEY/ },
  { type: 'vendor_b_local', bin: 'codex', credential: '.codex/auth.json', signIn: /`codex login`/ },
  { type: 'vendor_c_local', bin: 'gemini', credential: '.gemini/oauth_creds.json', signIn: /`gemini`.*GEMINI_API_KEY/, extraConfig: { enableExperimental: true } },
  { type: 'vendor_d_local', bin: 'opencode', credential: '.local/share/opencode/auth.json', signIn: /`opencode auth login`/ },
  { type: 'vendor_f_local', bin: 'pi', credential: '.pi/agent/auth.json', signIn: /`pi`.*\/login/ },
  { type: 'vendor_g_local', bin: 'qwen', credential: '.qwen/oauth_creds.json', signIn: /`qwen`.*\/auth/ },
];

describe('environment readiness: installed, signed in, ready', () => {
  it.each(CASES)('$type: a CLI without credentials is installed but not signed in, never ready', async ({ type, bin, credential, signIn, extraConfig }) => {
    t = await startCore();
    const company = await createCompany(t);
    const home = mkdtempSync(path.join(t.home, 'fake-home-'));
    const adapterConfig = { ...extraConfig, command: agentCli(bin), cwd: path.join(home, 'work'), env: { HOME: home } };

    const out = await t.api('POST', route(company, type), { body: { adapterConfig } });
    expect(out.status).toBe(200);
    expect(out.body.readiness).toEqual({ installed: true, signedIn: false, ready: false });
    const missing = out.body.checks.find((c: { code: string }) => c.code === 'auth_missing');
    expect(missing.level).toMatch(/^(warn|error)$/);
    expect(missing.hint).toMatch(signIn);

    mkdirSync(path.dirname(path.join(home, credential)), { recursive: true });
    writeFileSync(path.join(home, credential), '{}');
    const signedIn = await t.api('POST', route(company, type), { body: { adapterConfig } });
    expect(signedIn.body.readiness).toEqual({ installed: true, signedIn: true, ready: true });
  });

  it('an API key in the agent env (a secret reference) signs the CLI in; a missing CLI is not installed', async () => {
    t = await startCore();
    const company = await createCompany(t);
    const home = mkdtempSync(path.join(t.home, 'fake-home-'));
    const secret = await t.api('POST', `/api/companies/${company}/secrets`, { body: { name: 'anthropic', value: 'sk-ant-test' } });
    expect(secret.status).toBe(201);
    const withKey = await t.api('POST', route(company, 'vendor_a_local'), {
      body: { adapterConfig: { command: agentCli('claude'), env: { HOME: home, ANTHROPIC_API_KEY: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' } } } },
    });
    expect(withKey.body.readiness).toEqual({ installed: true, signedIn: true, ready: true });
    const absent = await t.api('POST', route(company, 'vendor_a_local'), { body: { adapterConfig: { command: 'no-such-claude-xyz', env: { HOME: home } } } });
    expect(absent.body).toMatchObject({ status: 'fail', readiness: { installed: false, ready: false } });
    // A process agent has no CLI login to check: ready when its command is found.
    const proc = await t.api('POST', route(company, 'process'), { body: { adapterConfig: { command: 'sh' } } });
    expect(proc.body.readiness).toEqual({ installed: true, signedIn: null, ready: true });
  });
});
