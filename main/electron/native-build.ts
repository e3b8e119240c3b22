import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../core/kernel/package-root.js';
import { DEV_NATIVE_DIR, NATIVE_FILE } from './native-binding.js';

/**
 * `npm run electron:native`: builds better-sqlite3 for the installed Electron's ABI into
 * build/native/electron/, without touching node_modules/better-sqlite3 (its Node-ABI build stays
 * for tests and the CLI). It works on a scratch copy of the package: @electron/rebuild (shipped
 * with electron-builder) downloads the matching prebuilt binary, or compiles it when none exists.
 * Needs the network (Electron headers or the prebuilt binary). Used by `npm start` and `npm run dist`.
 */
const requireHere = createRequire(import.meta.url);

export interface RebuildRequest {
  buildPath: string;
  electronVersion: string;
  arch: string;
  onlyModules: string[];
  force: boolean;
}

export interface NativeBuildOptions {
  /** Default: the installed `electron` package's version. */
  electronVersion?: string;
  arch?: string;
  /** Default: build/native/electron in the package root. */
  targetDir?: string;
  /** Default: @electron/rebuild. */
  rebuild?: (request: RebuildRequest) => Promise<void>;
}

export function installedElectronVersion(): string {
  try {
    return (JSON.parse(readFileSync(requireHere.resolve('electron/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    throw new Error('Electron is not installed: run `npm install` with network access (it downloads the Electron binary), then retry.');
  }
}

const moduleDir = (name: string): string => path.dirname(requireHere.resolve(`${name}/package.json`));

async function electronRebuild(request: RebuildRequest): Promise<void> {
  const { rebuild } = await import('@electron/rebuild');
  await rebuild(request);
}

export async function buildElectronNative(options: NativeBuildOptions = {}): Promise<{ file: string; electronVersion: string; arch: string }> {
  const electronVersion = options.electronVersion ?? installedElectronVersion();
  const arch = options.arch ?? process.env.npm_config_arch ?? process.arch;
  const target = options.targetDir ?? path.join(PACKAGE_ROOT, DEV_NATIVE_DIR);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'headcount-native-'));
  try {
    const source = moduleDir('better-sqlite3');
    const pkg = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
    writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'headcount-native', version: '0.0.0', dependencies: { 'better-sqlite3': pkg.version } }));
    const modules = path.join(scratch, 'node_modules');
    mkdirSync(modules);
    // A copy without the Node-ABI build; its own dependencies are linked, not copied.
    const nodeBuild = path.join(source, 'build');
    cpSync(source, path.join(modules, 'better-sqlite3'), { recursive: true, filter: (p) => p !== nodeBuild && !p.startsWith(nodeBuild + path.sep) });
    for (const dep of Object.keys(pkg.dependencies)) symlinkSync(moduleDir(dep), path.join(modules, dep), 'junction');
    await (options.rebuild ?? electronRebuild)({ buildPath: scratch, electronVersion, arch, onlyModules: ['better-sqlite3'], force: true });
    const built = path.join(modules, 'better-sqlite3', 'build', 'Release', NATIVE_FILE);
    if (!existsSync(built)) throw new Error(`the rebuild finished without ${built}`);
    mkdirSync(target, { recursive: true });
    const file = path.join(target, NATIVE_FILE);
    cpSync(built, file);
    writeFileSync(path.join(target, 'build.json'), JSON.stringify({ electron: electronVersion, arch, betterSqlite3: pkg.version }, null, 2) + '\n');
    return { file, electronVersion, arch };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  buildElectronNative().then(
    ({ file, electronVersion, arch }) => process.stdout.write(`better-sqlite3 built for Electron ${electronVersion} (${arch}): ${file}\n`),
    (err: unknown) => {
      process.stderr.write(`electron:native: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
