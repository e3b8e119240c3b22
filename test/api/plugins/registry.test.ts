import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempHome, type TestCore } from '../../helpers/core.js';
import { ensureVendorIBuilt, installDeps, pluginFixture, readRegistryFile, startPluginCore, VENDOR_I_DIR } from './helpers.js';

const PACKAGE = '@headcount-plugins/vendor-i-local';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'hc-plugin-registry-'));
let tarball: Buffer;
let version: string;
let t: TestCore | undefined;
const servers: http.Server[] = [];
const homes: string[] = [];

beforeAll(() => {
  ensureVendorIBuilt();
  execFileSync('npm', ['pack', '--pack-destination', scratch, '--silent'], { cwd: VENDOR_I_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  tarball = readFileSync(path.join(scratch, readdirSync(scratch).find((f) => f.endsWith('.tgz'))!));
  version = JSON.parse(readFileSync(path.join(VENDOR_I_DIR, 'package.json'), 'utf8')).version;
});
afterEach(async () => {
  await t?.close();
  t = undefined;
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const dir of [scratch, ...homes]) rmSync(dir, { recursive: true, force: true });
});

/**
 * A stand-in for the npm registry on loopback: the package document of the plugin and its
 * tarball, as registry.npmjs.org serves them. `hang` accepts requests and never answers.
 */
async function startRegistry(options: { hang?: boolean } = {}): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url ?? '');
    requests.push(url);
    if (options.hang) return;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (url === `/${PACKAGE}`) {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          name: PACKAGE,
          'dist-tags': { latest: version },
          versions: {
            [version]: {
              name: PACKAGE,
              version,
              type: 'module',
              dist: {
                tarball: `${base}/tarballs/vendor-i-local-${version}.tgz`,
                integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
                shasum: createHash('sha1').update(tarball).digest('hex'),
              },
            },
          },
        }),
      );
    } else if (url === `/tarballs/vendor-i-local-${version}.tgz`) {
      res.setHeader('content-type', 'application/octet-stream');
      res.end(tarball);
    } else {
      res.statusCode = 404;
      res.setHeader('content-type', 'application/json');
      res.end('{"error":"Not found"}');
    }
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

/** npm pointed at the stand-in, with a cache of its own (nothing from ~/.npm is used or written). */
const npmArgs = (registry: string) => [`--registry=${registry}`, `--cache=${mkdtempSync(path.join(scratch, 'cache-'))}`, '--fetch-retries=0'];

describe('POST /api/adapters with a registry package name', () => {
  it('installs by name and version range from the registry', async () => {
    const registry = await startRegistry();
    const home = tempHome();
    homes.push(home);
    const plugins = { extraArgs: npmArgs(registry.url), timeoutMs: 60_000 };
    t = await startPluginCore({ home, plugins });
    // A linked plugin first: npm must not prune its link as extraneous when it installs the next one.
    expect((await t.api('POST', '/api/adapters', { body: { localPath: pluginFixture('echo-plugin') } })).status).toBe(201);
    const res = await t.api('POST', '/api/adapters', { body: { packageName: `${PACKAGE}@^${version}` } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ type: 'vendor_i_local', packageName: PACKAGE, localPath: null });
    expect(registry.requests).toEqual(expect.arrayContaining([`/${PACKAGE}`, `/tarballs/vendor-i-local-${version}.tgz`]));
    expect(Object.keys(installDeps(t.home)).sort()).toEqual(['@hc-test/echo-plugin', PACKAGE]);
    expect(readRegistryFile(t.home)).toMatchObject([{ type: 'test_echo' }, { packageName: PACKAGE, localPath: null, type: 'vendor_i_local' }]);
    expect(lstatSync(path.join(home, 'adapter-plugins/node_modules/@hc-test/echo-plugin')).isSymbolicLink()).toBe(true);
    await t.close();
    t = await startPluginCore({ home, plugins });
    const loaded = (await t.api('GET', '/api/adapters')).body.filter((a: any) => a.source === 'plugin');
    expect(loaded.map((a: any) => [a.type, a.status])).toEqual([['test_echo', 'loaded'], ['vendor_i_local', 'loaded']]);

    const again = await t.api('POST', '/api/adapters', { body: { packageName: PACKAGE } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('adapter_already_installed');
  }, 60_000);

  it('a package the registry does not have is 422 with npm’s words, and leaves nothing', async () => {
    const registry = await startRegistry();
    t = await startPluginCore({ plugins: { extraArgs: npmArgs(registry.url), timeoutMs: 60_000 } });
    const res = await t.api('POST', '/api/adapters', { body: { packageName: '@headcount-plugins/does-not-exist' } });
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe('plugin_install_failed');
    expect(res.body.error).toMatch(/404|not found/i);
    expect(installDeps(t.home)).toEqual({});
    expect(readRegistryFile(t.home)).toBeNull();
  }, 60_000);

  it('an install that outlives its timeout is killed: 422 plugin_install_timeout, nothing left', async () => {
    const registry = await startRegistry({ hang: true });
    t = await startPluginCore({ plugins: { extraArgs: npmArgs(registry.url), timeoutMs: 3000 } });
    const started = Date.now();
    const res = await t.api('POST', '/api/adapters', { body: { packageName: PACKAGE } });
    expect(res.status, res.text).toBe(422);
    expect(res.body.code).toBe('plugin_install_timeout');
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(existsSync(path.join(t.home, 'adapter-plugins', 'node_modules', '@headcount-plugins'))).toBe(false);
    expect(installDeps(t.home)).toEqual({});
    // The server is still fine and can install once the registry answers.
    expect((await t.api('GET', '/api/adapters')).status).toBe(200);
  }, 60_000);
});
