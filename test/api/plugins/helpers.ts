import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCore, type TestCore } from '../../helpers/core.js';
import type { CoreOptions } from '../../../main/core/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const VENDOR_I_DIR = path.join(ROOT, 'adapters/vendor-i-local');
export const CLI_REPLAY = path.join(ROOT, 'test/fixtures/cli-replay.mjs');
export const AMP_FIXTURES = path.join(VENDOR_I_DIR, 'fixtures');
const PLUGIN_FIXTURES = path.join(ROOT, 'test/fixtures/plugins');

/** The plugin is installed from its build output; `npm run build` makes it, this covers a bare checkout. */
export function ensureVendorIBuilt(): void {
  if (!existsSync(path.join(VENDOR_I_DIR, 'dist/index.js'))) execFileSync(process.execPath, [path.join(VENDOR_I_DIR, 'build.mjs')], { stdio: 'inherit' });
}

/** A test plugin of test/fixtures/plugins, copied to a temp directory the test may change. */
export function copyPluginFixture(name: string): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'hc-plugin-src-')), name);
  cpSync(path.join(PLUGIN_FIXTURES, name), dir, { recursive: true });
  return dir;
}

export const pluginFixture = (name: string) => path.join(PLUGIN_FIXTURES, name);

/** A core whose npm never reaches the network (the tarball tests install offline). */
export function startPluginCore(options: Partial<CoreOptions> = {}): Promise<TestCore> {
  return startCore({ heartbeats: true, plugins: { extraArgs: ['--offline'], timeoutMs: 60_000 }, ...options });
}

export function readRegistryFile(home: string): any[] | null {
  const file = path.join(home, 'adapter-plugins.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

export function installDeps(home: string): Record<string, string> {
  const file = path.join(home, 'adapter-plugins', 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).dependencies ?? {}) : {};
}

/** An agent of the vendor_i_local plugin whose "amp" is the CLI replay fixture. */
export function ampAgentBody(name: string, env: Record<string, string>, config: Record<string, unknown> = {}) {
  return {
    name,
    role: 'engineer',
    adapterType: 'vendor_i_local',
    adapterConfig: { command: CLI_REPLAY, env: { CLI_REPLAY_WAIT_STDIN: '0', ...env }, timeoutSec: 30, graceMs: 500, ...config },
  };
}
