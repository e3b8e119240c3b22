import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { IMPORT_HOOK } from '../core/kernel/import-module.js';

/**
 * Runs one of the CLI's single-file bundles (bin/build-cli-bundle.mjs) with V8's code cache.
 *
 * Parsing and compiling the 3.9 MB bundle, and then compiling each function it calls while it starts,
 * were most of a start's CPU; Node 20 keeps no compiled code between runs of an ES module. The
 * bundle is therefore CommonJS, compiled here as a `vm.Script` with the code V8 compiled last time
 * (`<bundle>.<node version>-<arch>.cache`, beside it). The serve command reached "listening" in
 * about 560 ms instead of 790 (bench/README.md, cold start).
 *
 * A cache is written when there was none or V8 refused it (another bundle, Node or V8 flag set): at
 * exit or a few seconds in, whichever comes first, so it holds what start-up compiled. Writing is
 * best effort (a read-only install just runs without one); V8 checks a cache against the source
 * and its own version before using it, so a stale or damaged file costs one slower start.
 * HEADCOUNT_CODE_CACHE=0 runs without it.
 */
export interface BundleRun {
  cache: 'used' | 'written-after-miss' | 'written-after-refusal' | 'off';
}

/** How long a process runs before its cache is written, if it has not exited first. */
export const CACHE_AFTER_MS = 3000;

export function runBundle(bundle: URL, env: NodeJS.ProcessEnv = process.env): BundleRun {
  const filename = fileURLToPath(bundle);
  const raw = readFileSync(filename, 'utf8');
  // The entry's `#!` line would be a syntax error inside the CommonJS wrapper; the line stays, as a comment.
  const source = raw.startsWith('#!') ? `//${raw.slice(2)}` : raw;
  const off = env.HEADCOUNT_CODE_CACHE === '0';
  const cacheFile = `${filename}.${process.version}-${process.arch}.cache`;
  let cachedData: Buffer | undefined;
  if (!off) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined;
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename, ...(cachedData ? { cachedData } : {}) });
  // The bundle's own import() (its build turns the others into require()) goes through this
  // module's: V8 drops a script's import() hook when its code comes from the cache (Node 20).
  (globalThis as Record<symbol, unknown>)[IMPORT_HOOK] = (specifier: string) => import(specifier);
  const run: BundleRun = { cache: off ? 'off' : !cachedData ? 'written-after-miss' : script.cachedDataRejected ? 'written-after-refusal' : 'used' };
  if (run.cache.startsWith('written')) {
    let written = false;
    const write = (): void => {
      if (written) return;
      written = true;
      // Beside the bundle, then renamed: two processes starting together never leave half a file.
      const temp = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(temp, script.createCachedData());
        renameSync(temp, cacheFile);
      } catch {
        // A read-only install: it runs without a cache, as before.
        try {
          rmSync(temp, { force: true });
        } catch {
          // Nothing was written, or nothing can be removed: either way nothing is left to do.
        }
      }
    };
    // Registered before the bundle runs: a command that exits while it runs (`--version`) still writes.
    process.once('exit', write);
    setTimeout(write, CACHE_AFTER_MS).unref();
  }
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, path.dirname(filename));
  return run;
}

