import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The parts of a plugin's package.json the loader reads. */
export interface PluginPackageJson {
  name?: unknown;
  version?: unknown;
  exports?: unknown;
  main?: unknown;
  service?: { adapterUiParser?: unknown };
  [key: string]: unknown;
}

interface InstallManifest {
  name: string;
  private: true;
  description: string;
  dependencies: Record<string, string>;
}

const manifestPath = (dir: string) => path.join(dir, 'package.json');

/** Creates the install directory as an npm prefix of its own, so installs never touch the app's tree. */
export function ensureInstallDir(dir: string): void {
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  if (!existsSync(manifestPath(dir))) {
    const manifest: InstallManifest = {
      name: 'headcount-adapter-plugins',
      private: true,
      description: 'Adapter plugins installed by Headcount (POST /api/adapters). Managed by Headcount: do not edit.',
      dependencies: {},
    };
    writeFileSync(manifestPath(dir), JSON.stringify(manifest, null, 2) + '\n');
  }
}

export function readDependencies(dir: string): Record<string, string> {
  if (!existsSync(manifestPath(dir))) return {};
  const manifest = JSON.parse(readFileSync(manifestPath(dir), 'utf8')) as { dependencies?: Record<string, string> };
  return { ...(manifest.dependencies ?? {}) };
}

function setDependency(dir: string, name: string, spec: string | null): void {
  const manifest = JSON.parse(readFileSync(manifestPath(dir), 'utf8')) as InstallManifest;
  manifest.dependencies = { ...(manifest.dependencies ?? {}) };
  if (spec === null) delete manifest.dependencies[name];
  else manifest.dependencies[name] = spec;
  writeFileSync(manifestPath(dir), JSON.stringify(manifest, null, 2) + '\n');
}

/** `<installDir>/node_modules/<name>` (scoped names are two folders deep). */
export function packageDir(installDir: string, name: string): string {
  return path.join(installDir, 'node_modules', ...name.split('/'));
}

export function readPackageJson(dir: string): PluginPackageJson {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as PluginPackageJson;
}

/**
 * Links a local package directory into the install directory. It is also recorded as a `file:`
 * dependency: a later `npm install` of another plugin would otherwise prune the link as extraneous.
 */
export function linkLocalPackage(installDir: string, name: string, target: string): void {
  const link = packageDir(installDir, name);
  mkdirSync(path.dirname(link), { recursive: true });
  removeLink(link);
  // A junction needs no privilege on Windows and acts as a directory link; elsewhere the type is ignored.
  symlinkSync(target, link, 'junction');
  setDependency(installDir, name, `file:${target}`);
}

export function unlinkLocalPackage(installDir: string, name: string): void {
  removeLink(packageDir(installDir, name));
  setDependency(installDir, name, null);
}

function removeLink(link: string): void {
  try {
    const st = lstatSync(link);
    // Only ever remove the link itself, never the founder's source directory behind it.
    if (st.isSymbolicLink()) rmSync(link, { force: true });
    else rmSync(link, { recursive: true, force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Resolves a subpath of a package's `exports` (`.`, `./server`, `./ui-parser`) to a file, with
 * the given conditions in order of preference. Only what plugins use is supported: a string
 * target, or a conditions object (possibly nested). `main` stands in for `.` without `exports`.
 */
export function resolveExport(pkgDir: string, pkg: PluginPackageJson, subpath: string, conditions: readonly string[]): string | null {
  const exp = pkg.exports;
  let target: unknown;
  if (exp === undefined) {
    target = subpath === '.' ? (typeof pkg.main === 'string' ? pkg.main : 'index.js') : undefined;
  } else if (typeof exp === 'string' || Array.isArray(exp)) {
    target = subpath === '.' ? exp : undefined;
  } else if (exp && typeof exp === 'object') {
    const map = exp as Record<string, unknown>;
    const hasSubpaths = Object.keys(map).some((k) => k.startsWith('.'));
    target = hasSubpaths ? map[subpath] : subpath === '.' ? map : undefined;
  }
  const file = pickTarget(target, conditions);
  if (!file || !file.startsWith('./')) return null;
  const resolved = path.resolve(pkgDir, file);
  // An export may not point outside its package.
  if (!resolved.startsWith(path.resolve(pkgDir) + path.sep)) return null;
  return resolved;
}

function pickTarget(target: unknown, conditions: readonly string[]): string | null {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const t of target) {
      const picked = pickTarget(t, conditions);
      if (picked) return picked;
    }
    return null;
  }
  if (target && typeof target === 'object') {
    const map = target as Record<string, unknown>;
    for (const key of Object.keys(map)) {
      if (key === 'default' || conditions.includes(key)) {
        const picked = pickTarget(map[key], conditions);
        if (picked) return picked;
      }
    }
  }
  return null;
}
