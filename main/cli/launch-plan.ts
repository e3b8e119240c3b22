import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type LaunchPlan = { mode: 'electron'; binary: string; entry: string } | { mode: 'headless'; reason: string };

export interface LaunchFacts {
  /** Path the `electron` package reports for its binary, or null when the package is absent. */
  electronBinary: string | null;
  binaryExists: boolean;
  entry: string;
  entryExists: boolean;
  /** The Electron-ABI better-sqlite3 build the shell passes to the core (`npm run electron:native`). */
  nativeBinding: string;
  nativeBindingExists: boolean;
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
  if (!f.nativeBindingExists) {
    return { mode: 'headless', reason: `better-sqlite3 is not built for Electron yet: run \`npm run electron:native\` once (needs the network)` };
  }
  if (f.platform === 'linux' && !f.env.DISPLAY && !f.env.WAYLAND_DISPLAY) return { mode: 'headless', reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { mode: 'electron', binary: f.electronBinary, entry: f.entry };
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

export const gatherLaunchFacts = (fromUrl: string, entry: string, nativeBinding: string): LaunchFacts => {
  const electronBinary = findElectronBinary(fromUrl);
  return {
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
