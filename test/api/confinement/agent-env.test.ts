import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { eventually } from '../heartbeat/helpers.js';

const REPLAY = path.resolve(import.meta.dirname, '../../fixtures/cli-replay.mjs');
const BOARD_TOKEN = `hcb_env-${randomUUID()}`;
const MARKER = `marker-${randomUUID()}`;
const INHERITED = `inherited-${randomUUID()}`;

/** Every adapter type that starts a local process here; each runs the replay CLI, which records its env. */
const LOCAL_TYPES: { type: string; config?: Record<string, unknown> }[] = [
  { type: 'process' },
  { type: 'vendor_a_local' },
  { type: 'vendor_b_local' },
  { type: 'vendor_c_local', config: { enableExperimental: true } },
  { type: 'vendor_d_local', config: { model: 'anthropic/claude-sonnet-4-5' } },
  { type: 'vendor_e' },
  { type: 'vendor_f_local' },
  { type: 'vendor_g_local' },
];

let t: TestCore | undefined;
const temps: string[] = [];
const saved: Record<string, string | undefined> = {};
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
};

/** A server started from a shell holding the board token, the data home and two more variables. */
async function serverWithSecrets() {
  for (const k of ['SERVICE_BOARD_TOKEN', 'SERVICE_HOME', 'HEADCOUNT_TEST_MARKER', 'HEADCOUNT_TEST_INHERIT']) saved[k] = process.env[k];
  t = await startCore({ boardToken: BOARD_TOKEN });
  process.env.SERVICE_BOARD_TOKEN = BOARD_TOKEN;
  process.env.SERVICE_HOME = t.home;
  process.env.HEADCOUNT_TEST_MARKER = MARKER;
  process.env.HEADCOUNT_TEST_INHERIT = INHERITED;
  temps.push(t.home);
  return { t, companyId: await createCompany(t) };
}

function replayConfig(type: string, dir: string, extra: Record<string, unknown> = {}) {
  const empty = path.join(dir, 'empty.txt');
  writeFileSync(empty, '');
  const env = { HOME: dir, CLI_REPLAY_FILE: empty, CLI_REPLAY_RECORD: path.join(dir, 'calls.jsonl'), CLI_REPLAY_WAIT_STDIN: '0', CLI_REPLAY_VERSION: 'replay 1.0.0' };
  const command = type === 'process' ? { command: process.execPath, args: [REPLAY] } : { command: REPLAY };
  return { ...command, cwd: dir, env, timeoutSec: 30, ...extra };
}

const recorded = (dir: string): { env: Record<string, string> }[] => {
  const file = path.join(dir, 'calls.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
};

describe('the agent environment is built, never inherited', () => {
  it.each([true, false])('no agent of any adapter type sees the board token, the data home or an unlisted server variable (sandbox: %s)', async (sandbox) => {
    const { t: core, companyId } = await serverWithSecrets();
    for (const { type, config } of LOCAL_TYPES) {
      const dir = tempDir(`hc-env-${type}-`);
      const created = await core.api('POST', `/api/companies/${companyId}/agents`, {
        body: { name: `Agent ${type} ${sandbox}`, adapterType: type, adapterConfig: replayConfig(type, dir, { ...config, sandbox, inheritEnv: ['HEADCOUNT_TEST_INHERIT'] }) },
      });
      expect({ type, status: created.status, body: created.status === 201 ? null : created.body }).toEqual({ type, status: 201, body: null });
      expect((await core.api('POST', `/api/agents/${created.body.id}/heartbeat/invoke`, { body: {} })).status).toBe(202);
      await eventually(async () => {
        const runs = (await core.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${created.body.id}`)).body.items;
        return runs?.length && !['queued', 'running'].includes(runs[0].status) ? runs[0] : undefined;
      }, 30_000, `the ${type} run`);
      const calls = recorded(dir);
      expect({ type, calls: calls.length > 0 }).toEqual({ type, calls: true });
      for (const { env } of calls) {
        const text = JSON.stringify(env);
        expect({ type, leaked: [BOARD_TOKEN, MARKER, t!.home].filter((s) => text.includes(s)) }).toEqual({ type, leaked: [] });
        expect({ type, names: Object.keys(env).filter((k) => ['SERVICE_BOARD_TOKEN', 'SERVICE_HOME', 'HEADCOUNT_TEST_MARKER'].includes(k)) }).toEqual({ type, names: [] });
        // What the board listed in inheritEnv does come through, and the run's own variables are set.
        expect({ type, inherited: env.HEADCOUNT_TEST_INHERIT, hasRun: Boolean(env.SERVICE_RUN_ID && env.SERVICE_API_KEY) }).toEqual({ type, inherited: INHERITED, hasRun: true });
      }
    }
  }, 240_000);

  it('inheritEnv cannot name a server variable', async () => {
    const { t: core, companyId } = await serverWithSecrets();
    const dir = tempDir('hc-env-refused-');
    for (const name of ['SERVICE_BOARD_TOKEN', 'SERVICE_HOME', 'service_master_key']) {
      const res = await core.api('POST', `/api/companies/${companyId}/agents`, { body: { name: `Bad ${name}`, adapterType: 'process', adapterConfig: replayConfig('process', dir, { inheritEnv: [name] }) } });
      expect(res.status).toBe(400);
      expect(res.text).toContain('inheritEnv');
    }
  });

  it('environment checks resolve no secret: the version probe sees neither the secret nor the server variables', async () => {
    const { t: core, companyId } = await serverWithSecrets();
    const secretValue = `sk-${randomUUID()}`;
    const secret = await core.api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'anthropic-key', value: secretValue } });
    expect(secret.status).toBe(201);
    const dir = tempDir('hc-env-check-');
    // A CLI that writes down the environment it was probed with, then says its version.
    const cli = path.join(dir, 'probe-cli.sh');
    writeFileSync(cli, `#!/bin/sh\nenv >> "${dir}/probe-env.txt"\necho "probe-cli 1.0.0"\n`, { mode: 0o755 });
    const adapterConfig = { command: cli, cwd: dir, env: { HOME: dir, ANTHROPIC_API_KEY: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' } } };
    const res = await core.api('POST', `/api/companies/${companyId}/adapters/vendor_a_local/test-environment`, { body: { adapterConfig } });
    expect(res.status).toBe(200);
    // Still known to be set: the auth check says which credential the CLI will use.
    expect(res.body.checks.map((c: any) => c.code)).toEqual(expect.arrayContaining(['cli_version', 'auth_api_key']));
    const probed = readFileSync(path.join(dir, 'probe-env.txt'), 'utf8');
    expect(probed).toContain('HOME=');
    for (const needle of [secretValue, BOARD_TOKEN, MARKER, 'SERVICE_HOME=']) expect(probed).not.toContain(needle);
    expect(res.text).not.toContain(secretValue);
  });
});
