import { copyFileSync, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { t as listTar } from 'tar';
import { conflict, ServiceError } from '../kernel/errors.js';
import { validationError } from '../kernel/error-contract.js';
import type { Logger } from '../kernel/logger.js';
import type { PluginEntry } from './contract.js';
import { linkLocalPackage, packageDir, readDependencies, readPackageJson, unlinkLocalPackage } from './install-dir.js';
import { runNpm, type NpmOptions } from './npm.js';

/** Options of plugin installs and loading (CoreOptions.plugins). */
export interface PluginInstallOptions extends NpmOptions {
  /** How long importing a plugin and calling createServerAdapter may take (default 20 s). */
  loadTimeoutMs?: number;
}

/** A package placed in the install directory, not yet validated. */
export interface PlacedPackage {
  packageName: string;
  localPath: string | null;
}

const TARBALLS = 'tarballs';

const unprocessable = (code: string, message: string, details?: unknown) => new ServiceError(422, code, message, details);
const alreadyInstalled = (name: string) => conflict('adapter_already_installed', `The package ${name} is already installed as an adapter plugin`, { packageName: name });

/** Links an absolute local directory (spec 4.3: source changes are picked up on restart). */
export async function installFromPath(installDir: string, localPath: string, installed: Set<string>): Promise<PlacedPackage> {
  const dir = path.resolve(localPath);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw validationError([{ location: 'body', path: 'body.localPath', message: 'must be an existing directory' }]);
  }
  let name: unknown;
  try {
    name = readPackageJson(dir).name;
  } catch {
    throw unprocessable('invalid_adapter_plugin', 'The directory has no readable package.json', { reasons: ['package.json is missing or not JSON'] });
  }
  if (typeof name !== 'string' || !/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) {
    throw unprocessable('invalid_adapter_plugin', 'package.json has no valid "name"', { reasons: ['package.json "name" is missing or not a package name'] });
  }
  if (installed.has(name)) throw alreadyInstalled(name);
  linkLocalPackage(installDir, name, dir);
  return { packageName: name, localPath: dir };
}

/** The package name a registry spec names (`name`, `name@range`, `@scope/name@tag`), if it is one. */
function registryName(spec: string): string | null {
  const m = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:@.*)?$/i.exec(spec);
  return m?.[1] ?? null;
}

/** The `name` in a packed tarball's package.json, read without unpacking it. */
function tarballName(file: string): string | null {
  let text = '';
  try {
    listTar({
      file,
      sync: true,
      onReadEntry: (e) => {
        if (/^[^/]+\/package\.json$/.test(e.path)) e.on('data', (c: Buffer) => (text += c.toString('utf8')));
        else e.resume();
      },
    });
    const name = (JSON.parse(text) as { name?: unknown }).name;
    return typeof name === 'string' ? name : null;
  } catch {
    return null;
  }
}

const looksLikePath = (spec: string) => spec.startsWith('/') || spec.startsWith('.') || /\.(tgz|tar\.gz|tar)$/i.test(spec) || path.isAbsolute(spec);

/**
 * `npm install --prefix <installDir> <spec>`: a registry name, or a packed tarball. A tarball is
 * copied into the install directory first, because npm records its path and would fail every
 * later install once the original file is gone.
 */
export async function installFromNpm(installDir: string, packageName: string, installed: Set<string>, options: PluginInstallOptions): Promise<PlacedPackage> {
  let spec = packageName;
  let copied: string | null = null;
  if (looksLikePath(spec)) {
    if (!path.isAbsolute(spec) || !existsSync(spec) || !statSync(spec).isFile()) {
      throw validationError([{ location: 'body', path: 'body.packageName', message: 'a tarball must be given as the absolute path of an existing file' }]);
    }
    const name = tarballName(spec);
    if (!name) throw unprocessable('invalid_adapter_plugin', 'The file is not a packed npm package', { reasons: ['no package.json with a name in the tarball'] });
    if (installed.has(name)) throw alreadyInstalled(name);
    mkdirSync(path.join(installDir, TARBALLS), { recursive: true });
    copied = path.join(installDir, TARBALLS, `${Date.now()}-${path.basename(spec)}`);
    copyFileSync(spec, copied);
    spec = copied;
  } else {
    const name = registryName(spec);
    if (name && installed.has(name)) throw alreadyInstalled(name);
  }
  const before = readDependencies(installDir);
  let result: Awaited<ReturnType<typeof runNpm>>;
  try {
    result = await runNpm(installDir, ['install', '--save', spec], options);
  } catch (err) {
    // npm could not be started at all (not installed, not executable).
    if (copied) rmSync(copied, { force: true });
    throw unprocessable('plugin_install_failed', `npm could not be started: ${(err as Error).message}`);
  }
  const added = Object.keys(readDependencies(installDir)).filter((k) => !(k in before));
  if (!result.ok) {
    for (const name of added) rmSync(packageDir(installDir, name), { recursive: true, force: true });
    if (copied) rmSync(copied, { force: true });
    const why = result.timedOut ? `npm install timed out after ${Math.round((options.timeoutMs ?? 120_000) / 1000)} s` : `npm install failed (exit ${result.exitCode})`;
    throw unprocessable(result.timedOut ? 'plugin_install_timeout' : 'plugin_install_failed', `${why}: ${lastLine(result.output)}`, { output: result.output });
  }
  const name = added[0] ?? registryName(packageName);
  if (!name || !existsSync(packageDir(installDir, name))) {
    if (copied) rmSync(copied, { force: true });
    throw unprocessable('plugin_install_failed', 'npm finished but the installed package could not be identified');
  }
  return { packageName: name, localPath: null };
}

const lastLine = (text: string) => text.split('\n').filter((l) => l.trim()).slice(-3).join(' ').slice(0, 500) || 'no output';

/**
 * Removes a plugin's files: the link of a local package (never its source), or the npm package
 * and its copied tarball. If npm cannot uninstall it, the folder and the dependency are removed
 * by hand, so an uninstall always leaves the directory as if it had never been installed.
 */
export async function removeFromDisk(installDir: string, entry: Pick<PluginEntry, 'packageName' | 'localPath'>, options: PluginInstallOptions, logger: Logger): Promise<void> {
  if (entry.localPath) {
    unlinkLocalPackage(installDir, entry.packageName);
    return;
  }
  const spec = readDependencies(installDir)[entry.packageName];
  if (spec !== undefined) {
    const result = await runNpm(installDir, ['uninstall', '--save', entry.packageName], options).catch((err: Error) => ({ ok: false, output: err.message }));
    if (!result.ok) logger.warn('npm uninstall failed; removing the plugin by hand', { packageName: entry.packageName, output: result.output });
  }
  rmSync(packageDir(installDir, entry.packageName), { recursive: true, force: true });
  if (readDependencies(installDir)[entry.packageName] !== undefined) unlinkLocalPackage(installDir, entry.packageName);
  const tarball = spec?.startsWith('file:') ? path.resolve(installDir, spec.slice('file:'.length)) : null;
  if (tarball && path.dirname(tarball) === path.join(installDir, TARBALLS)) rmSync(tarball, { force: true });
}
