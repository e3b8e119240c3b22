import { existsSync, lstatSync, readlinkSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, type TestCore } from '../../helpers/core.js';
import { waitForRun } from '../heartbeat/helpers.js';
import { copyPluginFixture, ensureVendorIBuilt, installDeps, pluginFixture, readRegistryFile, startPluginCore, VENDOR_I_DIR } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
beforeAll(() => ensureVendorIBuilt());

const linkOf = (home: string, name: string) => path.join(home, 'adapter-plugins', 'node_modules', ...name.split('/'));

describe('POST /api/adapters with localPath', () => {
  it('links the package, registers its type and records it in adapter-plugins.json', async () => {
    t = await startPluginCore();
    const res = await t.api('POST', '/api/adapters', { body: { localPath: VENDOR_I_DIR } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      type: 'vendor_i_local',
      label: 'Amp (plugin)',
      source: 'plugin',
      packageName: '@headcount-plugins/vendor-i-local',
      localPath: VENDOR_I_DIR,
      uiParser: { contractVersion: '1.0.0', compatible: true },
    });
    expect(res.body.models.map((m: any) => m.id)).toEqual(['smart', 'rush', 'deep', 'free']);
    expect(res.body.agentConfigurationDoc).toMatch(/Use when/);
    expect(Date.parse(res.body.installedAt)).not.toBeNaN();

    const link = linkOf(t.home, '@headcount-plugins/vendor-i-local');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(VENDOR_I_DIR);
    expect(readRegistryFile(t.home)).toEqual([
      { packageName: '@headcount-plugins/vendor-i-local', localPath: VENDOR_I_DIR, type: 'vendor_i_local', installedAt: res.body.installedAt },
    ]);

    const list = await t.api('GET', '/api/adapters');
    expect(list.status).toBe(200);
    const doc = await t.api('GET', '/api/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/adapters', '/api/adapters/{type}', '/api/adapters/{type}/ui-parser']));
    const byType = Object.fromEntries(list.body.map((a: any) => [a.type, a]));
    expect(byType.process).toMatchObject({ source: 'builtin', status: 'loaded' });
    expect(byType.vendor_i_local).toMatchObject({ source: 'plugin', status: 'loaded', packageName: '@headcount-plugins/vendor-i-local', localPath: VENDOR_I_DIR });

    // The type is usable like a built-in: its models and its config schema apply to agents.
    const companyId = await createCompany(t);
    const models = await t.api('GET', `/api/companies/${companyId}/adapters/vendor_i_local/models`);
    expect(models.status).toBe(200);
    expect(JSON.stringify(models.body)).toContain('rush');
    const typo = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Typo', adapterType: 'vendor_i_local', adapterConfig: { comand: 'amp' } } });
    expect(typo.status).toBe(400);
    const relative = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Rel', adapterType: 'vendor_i_local', adapterConfig: { cwd: 'work' } } });
    expect(relative.status).toBe(400);
    expect(relative.text).toContain('adapterConfig.cwd');
    const ok = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Amp', adapterType: 'vendor_i_local', adapterConfig: { model: 'rush' } } });
    expect(ok.status, ok.text).toBe(201);
  });

  it('refuses agents, bad bodies, duplicates and built-in type clashes', async () => {
    t = await startPluginCore();
    const companyId = await createCompany(t);
    const agent = await createAgent(t, companyId);
    const key = await createAgentKey(t, agent.id);
    const asAgent = await t.api('POST', '/api/adapters', { body: { localPath: VENDOR_I_DIR }, token: key });
    expect(asAgent.status).toBe(403);
    expect(asAgent.body.code).toBe('board_only');
    expect(readRegistryFile(t.home)).toBeNull();

    for (const body of [{}, { localPath: VENDOR_I_DIR, packageName: 'x' }, { localPath: 'adapters/vendor-i-local' }, { packageName: '--registry=http://evil' }, { localPath: VENDOR_I_DIR, extra: 1 }]) {
      const res = await t.api('POST', '/api/adapters', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.error).toMatch(/body\.(packageName|localPath|extra)/);
    }
    const missing = await t.api('POST', '/api/adapters', { body: { localPath: '/nonexistent/plugin/dir' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('body.localPath');

    expect((await t.api('POST', '/api/adapters', { body: { localPath: VENDOR_I_DIR } })).status).toBe(201);
    const again = await t.api('POST', '/api/adapters', { body: { localPath: VENDOR_I_DIR } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('adapter_already_installed');

    const clash = await t.api('POST', '/api/adapters', { body: { localPath: pluginFixture('builtin-clash') } });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('adapter_type_taken');
    expect(existsSync(linkOf(t.home, '@hc-test/builtin-clash'))).toBe(false);
    expect(readRegistryFile(t.home)!.map((e) => e.type)).toEqual(['vendor_i_local']);
    expect(Object.keys(installDeps(t.home))).toEqual(['@headcount-plugins/vendor-i-local']);
  });

  it('answers 422 with the reasons for an invalid package and leaves nothing behind', async () => {
    t = await startPluginCore();
    const before = (await t.api('GET', '/api/adapters')).body;

    const bad = await t.api('POST', '/api/adapters', { body: { localPath: pluginFixture('bad-shape') } });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe('invalid_adapter_plugin');
    const reasons: string[] = bad.body.details.reasons;
    expect(reasons.join('\n')).toMatch(/type must be a snake_case/);
    expect(reasons.join('\n')).toMatch(/execute must be a function/);
    expect(reasons.join('\n')).toMatch(/testEnvironment must be a function/);
    expect(reasons.join('\n')).toMatch(/models must be an array/);
    expect(reasons.join('\n')).toMatch(/agentConfigurationDoc/);
    expect(reasons.join('\n')).toMatch(/sessionCodec.serialize must be a function/);

    const throws = await t.api('POST', '/api/adapters', { body: { localPath: pluginFixture('throws-in-create') } });
    expect(throws.status).toBe(422);
    expect(throws.body.details.reasons[0]).toContain('createServerAdapter() threw: vendor SDK could not start');

    const noPackage = await t.api('POST', '/api/adapters', { body: { localPath: path.join(VENDOR_I_DIR, 'fixtures') } });
    expect(noPackage.status).toBe(422);

    for (const name of ['@hc-test/bad-shape', '@hc-test/throws-in-create']) expect(existsSync(linkOf(t.home, name))).toBe(false);
    expect(installDeps(t.home)).toEqual({});
    expect(readRegistryFile(t.home)).toBeNull();
    expect((await t.api('GET', '/api/adapters')).body).toEqual(before);
  });
});

describe('DELETE /api/adapters/{type}', () => {
  it('uninstalls a plugin: its agents stay and their runs fail with adapter_missing', async () => {
    t = await startPluginCore();
    const src = copyPluginFixture('echo-plugin');
    expect((await t.api('POST', '/api/adapters', { body: { localPath: src } })).status).toBe(201);
    const companyId = await createCompany(t);
    const created = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Echo', adapterType: 'test_echo', adapterConfig: { greeting: 'hi' } } });
    expect(created.status, created.text).toBe(201);
    const agentId = created.body.id;
    // The plugin's own JSON Schema is enforced.
    const tooLong = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Echo2', adapterType: 'test_echo', adapterConfig: { greeting: 'x'.repeat(30) } } });
    expect(tooLong.status).toBe(400);

    expect((await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} })).status).toBeLessThan(300);
    expect((await waitForRun(t, companyId, agentId)).status).toBe('succeeded');

    const key = await createAgentKey(t, agentId);
    expect((await t.api('DELETE', '/api/adapters/test_echo', { token: key })).status).toBe(403);
    expect((await t.api('DELETE', '/api/adapters/process')).body.code).toBe('builtin_adapter');
    expect((await t.api('DELETE', '/api/adapters/process')).status).toBe(409);
    expect((await t.api('DELETE', '/api/adapters/no_such_type')).status).toBe(404);

    const del = await t.api('DELETE', '/api/adapters/test_echo');
    expect(del.status, del.text).toBe(200);
    expect(del.body).toEqual({ type: 'test_echo', packageName: '@hc-test/echo-plugin', uninstalled: true });
    expect(existsSync(linkOf(t.home, '@hc-test/echo-plugin'))).toBe(false);
    expect(existsSync(path.join(src, 'index.js'))).toBe(true); // the source behind the link is untouched
    expect(readRegistryFile(t.home)).toEqual([]);
    expect(installDeps(t.home)).toEqual({});
    expect((await t.api('GET', '/api/adapters')).body.some((a: any) => a.type === 'test_echo')).toBe(false);

    expect((await t.api('GET', `/api/agents/${agentId}`)).status).toBe(200);
    expect((await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} })).status).toBeLessThan(300);
    const failed = await waitForRun(t, companyId, agentId, (r) => r.status === 'failed');
    expect(failed.errorCode).toBe('adapter_missing');
    expect((await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Late', adapterType: 'test_echo' } })).status).toBe(400);
    rmSync(path.dirname(src), { recursive: true, force: true });
  });
});
