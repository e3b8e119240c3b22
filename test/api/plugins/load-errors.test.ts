import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCompany, tempHome, type TestCore } from '../../helpers/core.js';
import { waitForRun } from '../heartbeat/helpers.js';
import { copyPluginFixture, pluginFixture, readRegistryFile, startPluginCore } from './helpers.js';

let t: TestCore | undefined;
const cleanup: string[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

describe('plugins that fail at start', () => {
  it('a plugin that now throws at import is listed with its error while the server keeps serving', async () => {
    const home = tempHome();
    const src = copyPluginFixture('echo-plugin');
    cleanup.push(home, path.dirname(src));
    t = await startPluginCore({ home });
    expect((await t.api('POST', '/api/adapters', { body: { localPath: src } })).status).toBe(201);
    await t.close();

    // A local plugin's source changed into something that throws when imported.
    writeFileSync(path.join(src, 'index.js'), "throw new Error('syntax of the future');\nexport const x = 1;\n");
    t = await startPluginCore({ home });
    const list = await t.api('GET', '/api/adapters');
    expect(list.status).toBe(200);
    const entry = list.body.find((a: any) => a.type === 'test_echo');
    expect(entry).toMatchObject({ source: 'plugin', status: 'error', packageName: '@hc-test/echo-plugin', localPath: src });
    expect(entry.error).toContain('syntax of the future');
    expect(list.body.find((a: any) => a.type === 'process')).toMatchObject({ status: 'loaded' });

    // Everything else works; the broken type is simply not available.
    expect((await t.api('GET', '/api/health')).status).toBe(200);
    const companyId = await createCompany(t);
    const agent = await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Echo', adapterType: 'test_echo' } });
    expect(agent.status).toBe(400);
    expect(agent.body.code).toBe('unknown_adapter_type');
    const parser = await t.api('GET', '/api/adapters/test_echo/ui-parser');
    expect(parser.body).toMatchObject({ compatible: false, source: null, reason: 'no_ui_parser' });

    // A broken plugin can still be uninstalled.
    const del = await t.api('DELETE', '/api/adapters/test_echo');
    expect(del.status, del.text).toBe(200);
    expect(readRegistryFile(home)).toEqual([]);
    expect(existsSync(path.join(src, 'index.js'))).toBe(true);
  });

  it('a plugin whose import never finishes is reported after the load timeout; the start goes on', async () => {
    const home = tempHome();
    const src = copyPluginFixture('echo-plugin');
    cleanup.push(home, path.dirname(src));
    t = await startPluginCore({ home });
    expect((await t.api('POST', '/api/adapters', { body: { localPath: src } })).status).toBe(201);
    await t.close();
    writeFileSync(path.join(src, 'index.js'), 'await new Promise(() => {});\nexport function createServerAdapter() {}\n');
    t = await startPluginCore({ home, plugins: { loadTimeoutMs: 1000 } });
    const entry = (await t.api('GET', '/api/adapters')).body.find((a: any) => a.type === 'test_echo');
    expect(entry).toMatchObject({ status: 'error', error: expect.stringContaining('did not load within 1 s') });
    // Installing something that hangs the same way is refused, and leaves nothing behind.
    const other = copyPluginFixture('throws-in-create');
    cleanup.push(path.dirname(other));
    writeFileSync(path.join(other, 'index.js'), 'await new Promise(() => {});\n');
    const res = await t.api('POST', '/api/adapters', { body: { localPath: other } });
    expect(res.status).toBe(422);
    expect(existsSync(path.join(home, 'adapter-plugins', 'node_modules', '@hc-test', 'throws-in-create'))).toBe(false);
  });

  it('plugins whose package vanished or that are listed twice are reported, not fatal', async () => {
    const home = tempHome();
    cleanup.push(home);
    writeFileSync(
      path.join(home, 'adapter-plugins.json'),
      JSON.stringify([
        { packageName: '@gone/plugin', localPath: null, type: 'gone_plugin', installedAt: '2026-01-01T00:00:00.000Z' },
        { packageName: '@gone/plugin', localPath: null, type: 'gone_plugin', installedAt: '2026-01-02T00:00:00.000Z' },
      ]),
    );
    t = await startPluginCore({ home });
    const list = (await t.api('GET', '/api/adapters')).body.filter((a: any) => a.source === 'plugin');
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'gone_plugin', status: 'error', installedAt: '2026-01-01T00:00:00.000Z' });
    expect(list[0].error).toMatch(/not in .*node_modules/);
  });

  it('a plugin whose type a built-in now has is reported, and can still be uninstalled', async () => {
    const home = tempHome();
    cleanup.push(home);
    const target = pluginFixture('builtin-clash');
    mkdirSync(path.join(home, 'adapter-plugins', 'node_modules', '@hc-test'), { recursive: true });
    symlinkSync(target, path.join(home, 'adapter-plugins', 'node_modules', '@hc-test', 'builtin-clash'));
    writeFileSync(path.join(home, 'adapter-plugins', 'package.json'), JSON.stringify({ name: 'x', private: true, dependencies: { '@hc-test/builtin-clash': `file:${target}` } }));
    writeFileSync(path.join(home, 'adapter-plugins.json'), JSON.stringify([{ packageName: '@hc-test/builtin-clash', localPath: target, type: 'process', installedAt: '2026-01-01T00:00:00.000Z' }]));
    t = await startPluginCore({ home });
    const list = (await t.api('GET', '/api/adapters')).body.filter((a: any) => a.type === 'process');
    expect(list.map((a: any) => [a.source, a.status])).toEqual([['builtin', 'loaded'], ['plugin', 'error']]);
    expect(list[1].error).toContain('already taken by a built-in adapter');
    expect((await t.api('GET', '/api/adapters/process/ui-parser')).status).toBe(200);
    const del = await t.api('DELETE', '/api/adapters/process');
    expect(del.status, del.text).toBe(200);
    expect(existsSync(target)).toBe(true);
    expect(readRegistryFile(home)).toEqual([]);
    // The built-in is untouched, and is not removable.
    const companyId = await createCompany(t);
    expect((await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'P', adapterType: 'process', adapterConfig: { command: 'echo' } } })).status).toBe(201);
    expect((await t.api('DELETE', '/api/adapters/process')).status).toBe(409);
  });

  it('an unreadable adapter-plugins.json does not stop the server, and installs refuse to overwrite it', async () => {
    const home = tempHome();
    cleanup.push(home);
    writeFileSync(path.join(home, 'adapter-plugins.json'), '{"not": "an array"');
    t = await startPluginCore({ home });
    const list = await t.api('GET', '/api/adapters');
    expect(list.status).toBe(200);
    expect(list.body.every((a: any) => a.source === 'builtin')).toBe(true);
    const src = copyPluginFixture('echo-plugin');
    cleanup.push(path.dirname(src));
    const res = await t.api('POST', '/api/adapters', { body: { localPath: src } });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('plugin_registry_unreadable');
  });
});

describe('plugins that misbehave after loading', () => {
  it('a throwing or nonsensical execute fails the run and the server carries on', async () => {
    t = await startPluginCore();
    expect((await t.api('POST', '/api/adapters', { body: { localPath: pluginFixture('throws-at-run') } })).status).toBe(201);
    const companyId = await createCompany(t);
    const make = async (name: string, adapterConfig: Record<string, unknown>) => {
      const res = await t!.api('POST', `/api/companies/${companyId}/agents`, { body: { name, adapterType: 'test_throws', adapterConfig } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const thrower = await make('Thrower', {});
    const garbage = await make('Garbage', { mode: 'garbage' });
    for (const agentId of [thrower, garbage]) expect((await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} })).status).toBeLessThan(300);
    const thrown = await waitForRun(t, companyId, thrower);
    expect(thrown).toMatchObject({ status: 'failed', errorMessage: 'kaboom in execute' });
    const nonsense = await waitForRun(t, companyId, garbage);
    expect(nonsense).toMatchObject({ status: 'failed', errorCode: 'adapter_invalid_result' });

    const env = await t.api('POST', `/api/companies/${companyId}/adapters/test_throws/test-environment`, { body: { adapterConfig: {} } });
    expect(env.status, env.text).toBe(200);
    expect(env.body.status).toBe('fail');
    expect(JSON.stringify(env.body.checks)).toContain('kaboom in testEnvironment');
    expect((await t.api('GET', '/api/health')).status).toBe(200);
    // The agent can run again (and fail again) without anything stuck.
    expect((await t.api('POST', `/api/agents/${thrower}/heartbeat/invoke`, { body: {} })).status).toBeLessThan(300);
  });
});
