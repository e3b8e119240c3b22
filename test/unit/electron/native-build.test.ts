import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildElectronNative, installedElectronVersion, type RebuildRequest } from '../../../main/electron/native-build.js';

const requireHere = createRequire(import.meta.url);
const nodeBuild = path.join(path.dirname(requireHere.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

describe('npm run electron:native', () => {
  it('reads the installed Electron version, or says how to get Electron', () => {
    let installed = true;
    try {
      requireHere.resolve('electron/package.json');
    } catch {
      installed = false;
    }
    if (installed) expect(installedElectronVersion()).toMatch(/^\d+\.\d+\.\d+/);
    else expect(() => installedElectronVersion()).toThrow(/Electron is not installed: run `npm install` with network access/);
  });

  it('rebuilds a scratch copy of better-sqlite3 and leaves the Node-ABI build in node_modules alone', async () => {
    const before = statSync(nodeBuild).mtimeMs;
    const target = mkdtempSync(path.join(os.tmpdir(), 'hc-native-target-'));
    const requests: RebuildRequest[] = [];
    // The download/compile step is the edge (network, toolchain); it writes what it would build.
    const rebuild = async (r: RebuildRequest) => {
      requests.push(r);
      const copy = path.join(r.buildPath, 'node_modules', 'better-sqlite3');
      expect(existsSync(path.join(copy, 'build'))).toBe(false); // the Node build was not copied
      expect(existsSync(path.join(copy, 'binding.gyp'))).toBe(true);
      expect(existsSync(path.join(r.buildPath, 'node_modules', 'prebuild-install', 'package.json'))).toBe(true);
      mkdirSync(path.join(copy, 'build', 'Release'), { recursive: true });
      writeFileSync(path.join(copy, 'build', 'Release', 'better_sqlite3.node'), 'electron-abi-binary');
    };
    const out = await buildElectronNative({ electronVersion: '45.4.1', arch: 'x64', targetDir: target, rebuild });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ electronVersion: '45.4.1', arch: 'x64', onlyModules: ['better-sqlite3'], force: true });
    expect(existsSync(requests[0]!.buildPath)).toBe(false); // scratch removed
    expect(out.file).toBe(path.join(target, 'better_sqlite3.node'));
    expect(readFileSync(out.file, 'utf8')).toBe('electron-abi-binary');
    expect(JSON.parse(readFileSync(path.join(target, 'build.json'), 'utf8'))).toMatchObject({ electron: '45.4.1', arch: 'x64' });
    expect(statSync(nodeBuild).mtimeMs).toBe(before);
  });

  it('fails clearly when the rebuild produced nothing', async () => {
    await expect(buildElectronNative({ electronVersion: '45.4.1', targetDir: mkdtempSync(path.join(os.tmpdir(), 'hc-native-')), rebuild: async () => {} })).rejects.toThrow(
      /the rebuild finished without/,
    );
  });
});
