import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installBody, formatAdapterList } from '../../../main/cli/adapters.js';
import { pluginFixture } from '../plugins/helpers.js';
import { startCore, type TestCore } from '../../helpers/core.js';

const CLI = path.resolve(import.meta.dirname, '../../../dist/main/cli/headcount.bundle.mjs');

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, SERVICE_BOARD_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('installBody', () => {
  const dirs = new Set(['/work/plugin', '/home/me/plugins/mine']);
  const isDir = (p: string) => dirs.has(p);
  it('sends a directory as an absolute localPath, relative ones resolved against the cwd', () => {
    expect(installBody('/work/plugin', '/anywhere', isDir)).toEqual({ localPath: '/work/plugin' });
    expect(installBody('./mine', '/home/me/plugins', isDir)).toEqual({ localPath: '/home/me/plugins/mine' });
  });
  it('sends a tarball as an absolute path and anything else as an npm spec', () => {
    expect(installBody('pkg-1.0.0.tgz', '/tmp/x', isDir)).toEqual({ packageName: '/tmp/x/pkg-1.0.0.tgz' });
    expect(installBody('@acme/adapter@^2', '/tmp/x', isDir)).toEqual({ packageName: '@acme/adapter@^2' });
    // A bare word that happens to be a directory name is still a package name: npm specs win.
    expect(installBody('mine', '/home/me/plugins', isDir)).toEqual({ packageName: 'mine' });
  });
});

describe('formatAdapterList', () => {
  it('names the origin and the load error of each adapter', () => {
    const out = formatAdapterList([
      { type: 'process', label: 'Process', source: 'builtin', status: 'loaded' },
      { type: 'bad_one', label: 'bad_one', source: 'plugin', packageName: 'bad', localPath: '/p/bad', status: 'error', error: 'createServerAdapter threw: boom' },
    ]);
    expect(out).toBe(['process  Process (built-in)', 'bad_one  bad_one (plugin /p/bad)  [ERROR: createServerAdapter threw: boom]'].join('\n'));
  });
});

describe('headcount adapters (against a running server)', () => {
  let t: TestCore;
  beforeEach(async () => {
    t = await startCore();
  });
  afterEach(async () => {
    await t.close();
  });

  it('installs a plugin from a directory, lists it, and removes it', async () => {
    const conn = ['--url', t.url, '--token', t.boardToken];
    const install = await cli(['adapters', 'install', pluginFixture('echo-plugin'), ...conn]);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    const type = /^installed (\w+) /.exec(install.stdout)?.[1];
    expect(type).toBeTruthy();

    const list = await cli(['adapters', 'list', '--json', ...conn]);
    expect(list.code).toBe(0);
    const entries = JSON.parse(list.stdout) as { type: string; source: string; status: string }[];
    expect(entries.find((e) => e.type === type)).toMatchObject({ source: 'plugin', status: 'loaded' });
    expect(entries.some((e) => e.type === 'process' && e.source === 'builtin')).toBe(true);

    const remove = await cli(['adapters', 'remove', type!, ...conn]);
    expect(remove.code).toBe(0);
    expect(remove.stdout).toBe(`removed ${type}\n`);
    const again = await cli(['adapters', 'remove', type!, ...conn]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/404/);
    // Four CLI processes, each a cold Node start: generous on a loaded 2-core machine.
  }, 120_000);
});
