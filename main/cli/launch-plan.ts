import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * `provision`: better-sqlite3 has no build for this Electron yet (none at all, or one made for
 * another Electron version), so it is built first, into a folder of its own, before the window opens.
 */
export type LaunchPlan = { mode: 'electron'; binary: string; entry: string; provision: boolean } | { mode: 'headless'; reason: string };

export interface LaunchFacts {
  /** Path the `electron` package reports for its binary, or null when the package is absent. */
  electronBinary: string | null;
  binaryExists: boolean;
  entry: string;
  entryExists: boolean;
  /** The Electron-ABI better-sqlite3 build the shell passes to the core (`npm run electron:native`). */
  nativeBinding: string;
  nativeBindingExists: boolean;
  /** The Electron version the native build was made for (its build.json), when known. */
  nativeBindingElectron?: string | null;
  /** The installed Electron's version, when known. */
  electronVersion?: string | null;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

/**
 * Where the desktop shell looks for the Electron-ABI better-sqlite3 outside a packaged app (kept
 * equal to main/electron/native-binding.ts by a test; the CLI may not import the shell).
 */
export const devNativeBinding = (packageRoot: string): string => path.join(packageRoot, 'build', 'native', 'electron', 'better_sqlite3.node');

/** Decides between the desktop window and the headless board; pure so every branch is tested. */
export function planLaunch(f: LaunchFacts): LaunchPlan {
  if (f.env.HEADCOUNT_HEADLESS === '1') return { mode: 'headless', reason: 'HEADCOUNT_HEADLESS=1 is set' };
  if (!f.electronBinary) return { mode: 'headless', reason: 'Electron is not installed' };
  if (!f.binaryExists) return { mode: 'headless', reason: `the Electron binary is missing (${f.electronBinary})` };
  if (!f.entryExists) return { mode: 'headless', reason: `the desktop shell is not built (${f.entry})` };
  if (f.platform === 'linux' && !f.env.DISPLAY && !f.env.WAYLAND_DISPLAY) return { mode: 'headless', reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  const stale = f.nativeBindingElectron !== undefined && f.electronVersion !== undefined && f.nativeBindingElectron !== f.electronVersion;
  return { mode: 'electron', binary: f.electronBinary, entry: f.entry, provision: !f.nativeBindingExists || stale };
}

/** The `electron` package exports the path of its binary; it throws when the download never happened. */
export function findElectronBinary(fromUrl: string): string | null {
  try {
    const required: unknown = createRequire(fromUrl)('electron');
    return typeof required === 'string' ? required : null;
  } catch {
    return null;
  }
}

function readVersion(file: string, field: string): string | null {
  try {
    const value: unknown = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[field];
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

export const gatherLaunchFacts = (fromUrl: string, entry: string, nativeBinding: string): LaunchFacts => {
  const electronBinary = findElectronBinary(fromUrl);
  let electronPackage: string | null = null;
  try {
    electronPackage = createRequire(fromUrl).resolve('electron/package.json');
  } catch {
    // not installed: planLaunch says so
  }
  return {
    electronVersion: electronPackage ? readVersion(electronPackage, 'version') : null,
    nativeBindingElectron: readVersion(path.join(path.dirname(nativeBinding), 'build.json'), 'electron'),
    electronBinary,
    binaryExists: electronBinary !== null && existsSync(electronBinary),
    entry,
    entryExists: existsSync(entry),
    nativeBinding,
    nativeBindingExists: existsSync(nativeBinding),
    platform: process.platform,
    env: process.env,
  };
};

/** A window that dies this soon with an error never really started (missing libraries, GPU, sandbox). */
export const EARLY_EXIT_MS = 5000;

export interface LaunchDeps {
  spawn: (command: string, args: string[], options: SpawnOptions) => Pick<ChildProcess, 'on'>;
  /**
   * Builds better-sqlite3 for the installed Electron (`npm run electron:native`, run as its own
   * process so the CLI never loads the shell's code); rejects with the reason when it cannot.
   */
  provision: () => Promise<void>;
  /** Starts the headless board (prints its `listening on` line and login link). */
  headless: () => void;
  /** The one line telling the founder why and what to open. */
  say: (line: string) => void;
  exit: (code: number) => void;
  now: () => number;
  env: NodeJS.ProcessEnv;
}

export const headlessLine = (reason: string, port: number): string =>
  `Electron cannot start here (${reason}); serving the headless board on http://127.0.0.1:${port} instead: open the board link printed below in your browser.`;

/**
 * Carries out a plan. Electron gets the caller's environment without ELECTRON_RUN_AS_NODE (which
 * would turn it into a plain Node); if it cannot spawn, or exits with an error at once, the
 * headless board starts instead, once.
 */
export function launch(plan: LaunchPlan, port: number, deps: LaunchDeps): void {
  let fellBack = false;
  const fallBack = (reason: string) => {
    if (fellBack) return;
    fellBack = true;
    deps.say(headlessLine(reason, port));
    deps.headless();
  };
  if (plan.mode === 'headless') return fallBack(plan.reason);
  if (plan.provision) {
    deps.say('Building better-sqlite3 for Electron (once per Electron version)...');
    deps.provision().then(
      () => launch({ ...plan, provision: false }, port, deps),
      (err: unknown) => fallBack(`better-sqlite3 could not be built for Electron: ${err instanceof Error ? err.message : String(err)}; run \`npm run electron:native\` to retry`),
    );
    return;
  }

  const env = { ...deps.env };
  delete env.ELECTRON_RUN_AS_NODE;
  const startedAt = deps.now();
  const child = deps.spawn(plan.binary, [plan.entry], { stdio: 'inherit', env });
  child.on('error', (err: Error) => fallBack(`Electron failed to start: ${err.message}`));
  child.on('exit', (code: number | null, signal: NodeJS.Signals | null) => {
    if (fellBack) return;
    if (code !== 0 && deps.now() - startedAt < EARLY_EXIT_MS) fallBack(`Electron exited at start (${signal ?? `code ${code}`})`);
    else deps.exit(code ?? 0);
  });
}

/** Runs the built `electron:native` script (main/electron/native-build.ts) and waits for it. */
export function provisionElectronNative(spawnFn: LaunchDeps['spawn'], packageRoot: string): Promise<void> {
  const script = path.join(packageRoot, 'dist', 'main', 'electron', 'native-build.js');
  return new Promise((resolve, reject) => {
    const child = spawnFn(process.execPath, [script], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (err: Error) => reject(err));
    child.on('exit', (code: number | null) => (code === 0 ? resolve() : reject(new Error(`the build exited with code ${code}`))));
  });
}
