import { mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Where an uploaded export and its unpacked entries wait while an import is checked:
 * `$SERVICE_HOME/import-staging/<random>`, beside the live data and never inside attachments/ or
 * runs/. Each folder is removed whatever the outcome, and the parent with the last of them.
 */
export const importStagingRoot = (home: string): string => path.join(home, 'import-staging');

export function makeStaging(home: string, prefix: string): string {
  const root = importStagingRoot(home);
  for (let attempt = 0; ; attempt++) {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    try {
      return mkdtempSync(path.join(root, prefix));
    } catch (err) {
      // Another import's cleanup removed the parent between the two calls: make it again.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt > 2) throw err;
    }
  }
}

export function removeStaging(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(path.dirname(dir));
  } catch {
    // Not empty (another import is staging) or already gone.
  }
}

/** Removes what a crashed import left; called at start, before requests are served. */
export function sweepStaging(home: string): void {
  rmSync(importStagingRoot(home), { recursive: true, force: true });
}
