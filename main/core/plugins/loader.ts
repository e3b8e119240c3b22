import { existsSync, realpathSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { AdapterDescriptor } from '../../../adapters/types.js';
import { packageDir, readPackageJson, resolveExport, type PluginPackageJson } from './install-dir.js';
import { descriptorFromModule, PluginInvalidError } from './validate.js';
import { importModule } from '../kernel/import-module.js';

/** A package found in the install directory and checked against the module contract. */
export interface LoadedPackage {
  pkgDir: string;
  pkg: PluginPackageJson;
  descriptor: AdapterDescriptor;
}

/**
 * Imports a plugin's package root from the install directory and validates it. The import URL
 * carries the entry file's modification time: Node caches ES modules by URL for the life of the
 * process, and a core restarted in the same process (the desktop app restarting its server) must
 * see the new source of a local plugin.
 */
/** How long a plugin may take to import and create its adapter before it is reported as failed. */
export const DEFAULT_LOAD_TIMEOUT_MS = 20_000;

export async function loadPackage(installDir: string, packageName: string, timeoutMs = DEFAULT_LOAD_TIMEOUT_MS): Promise<LoadedPackage> {
  let timer: NodeJS.Timeout | undefined;
  // A module with a top-level await that never settles would otherwise hold the start forever.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PluginInvalidError([`${packageName} did not load within ${Math.round(timeoutMs / 1000)} s`])), timeoutMs);
  });
  try {
    return await Promise.race([importPackage(installDir, packageName), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function importPackage(installDir: string, packageName: string): Promise<LoadedPackage> {
  const pkgDir = packageDir(installDir, packageName);
  if (!existsSync(pkgDir)) throw new PluginInvalidError([`${packageName} is not in ${installDir}/node_modules (reinstall it)`]);
  let pkg: PluginPackageJson;
  try {
    pkg = readPackageJson(pkgDir);
  } catch (err) {
    throw new PluginInvalidError([`package.json of ${packageName} could not be read: ${(err as Error).message}`]);
  }
  const entry = resolveExport(pkgDir, pkg, '.', ['import', 'node', 'module']);
  if (!entry || !existsSync(entry)) {
    throw new PluginInvalidError([`the "." export of ${packageName} does not name an existing file (is the package built?)`]);
  }
  const real = realpathSync(entry);
  const url = `${pathToFileURL(real).href}?mtime=${statSync(real).mtimeMs}`;
  let mod: Record<string, unknown>;
  try {
    mod = (await importModule(url)) as Record<string, unknown>;
  } catch (err) {
    throw new PluginInvalidError([`importing ${packageName} failed: ${err instanceof Error ? err.message : String(err)}`]);
  }
  try {
    return { pkgDir, pkg, descriptor: await descriptorFromModule(mod) };
  } catch (err) {
    // Anything else a plugin throws while being inspected (a getter, a proxy) is a reason too.
    if (err instanceof PluginInvalidError) throw err;
    throw new PluginInvalidError([`inspecting ${packageName} failed: ${errorText(err)}`]);
  }
}

export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
