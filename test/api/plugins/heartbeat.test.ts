import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, tempHome, type TestCore } from '../../helpers/core.js';
import { readLog, waitForRun } from '../heartbeat/helpers.js';
import { AMP_FIXTURES, ampAgentBody, ensureVendorIBuilt, installDeps, pluginFixture, readRegistryFile, startPluginCore, VENDOR_I_DIR } from './helpers.js';

const THREAD = 'T-5f0c2d1e-7a4b-4c8e-9d3f-2b6a1e0c9f47';
const PACKAGE = '@headcount-plugins/vendor-i-local';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'hc-plugin-hb-'));
let t: TestCore | undefined;
const homes: string[] = [];

beforeAll(() => ensureVendorIBuilt());
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(() => {
  for (const home of [...homes, scratch]) rmSync(home, { recursive: true, force: true });
});

// The replay CLI's record and state live in the agent's cwd: inside the sandbox it can write nowhere else.
const cwdOf = (name: string) => path.join(scratch, `${name}-cwd`);
const record = (name: string) => path.join(cwdOf(name), `${name}.jsonl`);
const calls = (name: string) => readFileSync(record(name), 'utf8').trim().split('\n').map((l) => JSON.parse(l));

/** An agent whose first heartbeat gets a new thread and whose next ones resume it. */
async function ampAgent(t: TestCore, companyId: string, name: string) {
  mkdirSync(cwdOf(name), { recursive: true });
  const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
    body: ampAgentBody(name, {
      CLI_REPLAY_SEQUENCE: [path.join(AMP_FIXTURES, 'success-tool-use.jsonl'), path.join(AMP_FIXTURES, 'resume.jsonl')].join(path.delimiter),
      CLI_REPLAY_STATE: path.join(cwdOf(name), `${name}.state`),
      CLI_REPLAY_RECORD: record(name),
    }, { priceAsModel: 'claude-sonnet-4-5', cwd: cwdOf(name) }),
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function heartbeat(t: TestCore, companyId: string, agentId: string, nth: number) {
  const invoked = await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} });
  expect(invoked.status, invoked.text).toBeLessThan(300);
  const runs = async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items.filter((r: any) => !['queued', 'running'].includes(r.status));
  const deadline = Date.now() + 20_000;
  while ((await runs()).length < nth) {
    if (Date.now() > deadline) throw new Error('heartbeat did not finish');
    await new Promise((r) => setTimeout(r, 50));
  }
  return waitForRun(t, companyId, agentId, (r) => !['queued', 'running'].includes(r.status));
}

describe('vendor_i_local installed from its local path', () => {
  it('runs a real heartbeat, survives a restart of the core and resumes its thread', async () => {
    const home = tempHome();
    homes.push(home);
    t = await startPluginCore({ home });
    expect((await t.api('POST', '/api/adapters', { body: { localPath: VENDOR_I_DIR } })).status).toBe(201);
    const companyId = await createCompany(t);
    const agent = await ampAgent(t, companyId, 'local');

    const run = await heartbeat(t, companyId, agent.id, 1);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded', adapterType: 'vendor_i_local', exitCode: 0, sessionParams: { threadId: THREAD }, costStatus: 'priced' });
    expect(run.summary).toContain('Checked in as Ada');
    expect(run.usage).toMatchObject({ provider: 'amp', model: 'claude-sonnet-4-5', inputTokens: 686, outputTokens: 137, cachedInputTokens: 25199 });
    expect(run.costCents).toBeGreaterThan(0);
    const log = (await readLog(t, run.id)).map((r) => r.data).join('');
    expect(log).toContain(`"session_id":"${THREAD}"`);
    const first = calls('local')[0];
    expect(first.isTTY).toBe(true);
    expect(first.argv).toContain('--stream-json');
    // The CLI got a working run token for our API.
    const me = await t.api('GET', '/api/agents/me', { token: first.env.SERVICE_API_KEY });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(agent.id);

    await t.close();
    t = await startPluginCore({ home });
    const listed = (await t.api('GET', '/api/adapters')).body.find((a: any) => a.type === 'vendor_i_local');
    expect(listed).toMatchObject({ status: 'loaded', source: 'plugin', localPath: VENDOR_I_DIR });
    const resumed = await heartbeat(t, companyId, agent.id, 2);
    expect(resumed).toMatchObject({ status: 'succeeded', sessionParams: { threadId: THREAD }, summary: 'Continuing from the last heartbeat: still nothing assigned.' });
    expect(calls('local')[1].argv.slice(0, 3)).toEqual(['threads', 'continue', THREAD]);
  });
});

describe('vendor_i_local installed from a packed tarball', () => {
  it('npm-installs the tarball offline, runs a heartbeat, survives a restart and uninstalls', async () => {
    const packDir = mkdtempSync(path.join(scratch, 'pack-'));
    execFileSync('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: VENDOR_I_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = path.join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!);
    const home = tempHome();
    homes.push(home);
    t = await startPluginCore({ home });

    const res = await t.api('POST', '/api/adapters', { body: { packageName: tarball } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: 'vendor_i_local', packageName: PACKAGE, localPath: null, uiParser: { contractVersion: '1.0.0', compatible: true } });
    // A real install, not a link: the package's files are in the home, and the tarball the
    // request named may go away.
    const installed = path.join(home, 'adapter-plugins', 'node_modules', '@headcount-plugins', 'vendor-i-local');
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(existsSync(path.join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(path.join(installed, 'src'))).toBe(false); // `files` ships the build only
    rmSync(packDir, { recursive: true, force: true });
    expect(readRegistryFile(home)).toEqual([{ packageName: PACKAGE, localPath: null, type: 'vendor_i_local', installedAt: res.body.installedAt }]);

    const companyId = await createCompany(t);
    const agent = await ampAgent(t, companyId, 'tarball');
    const run = await heartbeat(t, companyId, agent.id, 1);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'succeeded', sessionParams: { threadId: THREAD } });

    await t.close();
    t = await startPluginCore({ home });
    expect((await t.api('GET', '/api/adapters')).body.find((a: any) => a.type === 'vendor_i_local')).toMatchObject({ status: 'loaded', packageName: PACKAGE });
    const resumed = await heartbeat(t, companyId, agent.id, 2);
    expect(resumed).toMatchObject({ status: 'succeeded' });
    expect(calls('tarball')[1].argv.slice(0, 3)).toEqual(['threads', 'continue', THREAD]);

    const dup = await t.api('POST', '/api/adapters', { body: { localPath: VENDOR_I_DIR } });
    expect(dup.status).toBe(409);

    const del = await t.api('DELETE', '/api/adapters/vendor_i_local');
    expect(del.status, del.text).toBe(200);
    expect(existsSync(installed)).toBe(false);
    expect(installDeps(home)).toEqual({});
    expect(readdirSync(path.join(home, 'adapter-plugins', 'tarballs'))).toEqual([]);
    expect(readRegistryFile(home)).toEqual([]);
  }, 90_000);

  it('a tarball that is not an adapter plugin is refused with 422 and uninstalled again', async () => {
    const src = mkdtempSync(path.join(scratch, 'bad-pkg-'));
    cpSync(pluginFixture('bad-shape'), src, { recursive: true });
    const packDir = mkdtempSync(path.join(scratch, 'pack-bad-'));
    execFileSync('npm', ['pack', '--pack-destination', packDir, '--silent'], { cwd: src, stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = path.join(packDir, readdirSync(packDir)[0]!);
    t = await startPluginCore();
    const res = await t.api('POST', '/api/adapters', { body: { packageName: tarball } });
    expect(res.status, res.text).toBe(422);
    expect(res.body.details.reasons.join(' ')).toContain('execute must be a function');
    expect(existsSync(path.join(t.home, 'adapter-plugins', 'node_modules', '@hc-test', 'bad-shape'))).toBe(false);
    expect(installDeps(t.home)).toEqual({});
    expect(readdirSync(path.join(t.home, 'adapter-plugins', 'tarballs'))).toEqual([]);
    expect(readRegistryFile(t.home)).toBeNull();

    const notATarball = await t.api('POST', '/api/adapters', { body: { packageName: path.join(AMP_FIXTURES, 'resume.jsonl') } });
    expect(notATarball.status).toBe(422);
    await t.close();
    t = await startPluginCore({ plugins: { npmCli: path.join(scratch, 'no-npm-here', 'npm-cli.js') } });
    const noNpm = await t.api('POST', '/api/adapters', { body: { packageName: tarball } });
    expect(noNpm.status).toBe(422);
    expect(noNpm.body).toMatchObject({ code: 'plugin_install_failed', error: expect.stringContaining('npm could not be started') });
    expect(readdirSync(path.join(t.home, 'adapter-plugins', 'tarballs'))).toEqual([]);
    const relative = await t.api('POST', '/api/adapters', { body: { packageName: './plugin.tgz' } });
    expect(relative.status).toBe(400);
    expect(relative.body.error).toContain('body.packageName');
  }, 60_000);
});
