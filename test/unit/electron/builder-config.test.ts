import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { electronNativeBinding, NATIVE_FILE, DEV_NATIVE_DIR } from '../../../main/electron/native-binding.js';
import { devNativeBinding } from '../../../main/cli/launch-plan.js';

const root = path.resolve(import.meta.dirname, '../../..');
const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<string, any>;
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own schema validation', async () => {
    // electron-builder's validator (app-builder-lib ships with it): unknown or misspelt keys fail.
    const requireHere = createRequire(import.meta.url);
    const { validateConfiguration } = requireHere(requireHere.resolve('app-builder-lib/out/util/config/config.js', { paths: [path.dirname(requireHere.resolve('electron-builder/package.json'))] })) as {
      validateConfiguration(c: unknown, logger: unknown): Promise<void>;
    };
    await expect(validateConfiguration(structuredClone(config), { isEnabled: false, add() {} })).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...structuredClone(config), notAKey: true }, { isEnabled: false, add() {} })).rejects.toThrow();
  });

  it('names the app and starts the Electron shell', () => {
    expect(config.appId).toBe('dev.headcount.app');
    expect(config.productName).toBe('Headcount');
    expect(config.extraMetadata.main).toBe('dist/main/electron/main.js');
    expect(existsSync(path.join(root, 'main/electron/main.ts'))).toBe(true);
  });

  it('ships an allowlist of built files', () => {
    const globs = (config.files as unknown[]).filter((f): f is string => typeof f === 'string');
    for (const needed of ['package.json', 'dist/main/**/*', 'dist/adapters/**/*', 'dist/renderer/**/*', 'dist/preload/**/*', 'main/core/db/migrations/**/*']) {
      expect(globs).toContain(needed);
    }
    expect(globs.some((g) => g === '**/*' || g.startsWith('src') || g.startsWith('test'))).toBe(false);
    const utils = (config.files as any[]).find((f) => typeof f === 'object' && f.to === 'node_modules/@service/adapter-utils');
    expect(utils.from).toBe('adapters/utils');
  });

  it('unpacks native modules from the asar', () => {
    for (const m of ['node_modules/better-sqlite3/**/*', 'node_modules/node-pty/**/*', 'node_modules/@napi-rs/keyring*/**/*', '**/*.node']) {
      expect(config.asarUnpack).toContain(m);
    }
  });

  it('ships the Electron-ABI better-sqlite3 where the shell looks for it, never rebuilding node_modules in place', () => {
    expect(config.npmRebuild).toBe(false);
    const native = (config.extraResources as any[]).find((r) => r.to === 'native');
    expect(native.from).toBe(DEV_NATIVE_DIR.split(path.sep).join('/'));
    expect(electronNativeBinding({ packaged: true, resourcesPath: '/r', packageRoot: '/p' })).toBe(path.join('/r', native.to, NATIVE_FILE));
    // `npm start` checks the same file the shell loads outside a packaged app.
    expect(electronNativeBinding({ packaged: false, resourcesPath: '', packageRoot: '/p' })).toBe(devNativeBinding('/p'));
  });

  it('targets dmg, nsis, AppImage and deb', () => {
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
  });

  it('`npm run dist` builds first, then the native module, then packages', () => {
    const steps = pkg.scripts.dist!.split('&&').map((s) => s.trim());
    expect(steps[0]).toBe('npm run build');
    expect(steps.indexOf('npm run electron:native')).toBeGreaterThan(0);
    expect(steps.at(-1)).toBe('electron-builder --config electron-builder.yml');
    expect(pkg.scripts['electron:native']).toBe('node dist/main/electron/native-build.js');
  });

  it('the electron-builder CLI runs here', () => {
    const res = spawnSync(path.join(root, 'node_modules/.bin/electron-builder'), ['--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(/electron-builder/);
    expect(res.stdout).toMatch(/--linux/);
  });
});
