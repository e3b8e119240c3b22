import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export type LaunchPlan = { mode: 'electron'; binary: string; entry: string } | { mode: 'headless'; reason: string };

export interface LaunchFacts {
  /** Path the `electron` package reports for its binary, or null when the package is absent. */
  electronBinary: string | null;
  binaryExists: boolean;
  entry: string;
  entryExists: boolean;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
}

/** Decides between the desktop window and the headless board; pure so every branch is tested. */
export function planLaunch(f: LaunchFacts): LaunchPlan {
  if (f.env.HEADCOUNT_HEADLESS === '1') return { mode: 'headless', reason: 'HEADCOUNT_HEADLESS=1 is set' };
  if (!f.electronBinary) return { mode: 'headless', reason: 'Electron is not installed' };
  if (!f.binaryExists) return { mode: 'headless', reason: `the Electron binary is missing (${f.electronBinary})` };
  if (!f.entryExists) return { mode: 'headless', reason: `the desktop shell is not built (${f.entry})` };
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

export const gatherLaunchFacts = (fromUrl: string, entry: string): LaunchFacts => {
  const electronBinary = findElectronBinary(fromUrl);
  return {
    electronBinary,
    binaryExists: electronBinary !== null && existsSync(electronBinary),
    entry,
    entryExists: existsSync(entry),
    platform: process.platform,
    env: process.env,
  };
};
