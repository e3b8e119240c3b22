import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The loader as the CLI runs it: the compiled module beside the built bundles (npm test builds first).
const LOADER = path.resolve(import.meta.dirname, '../../../dist/main/cli/code-cache.js');

// A bundle as esbuild writes one: a `#!` line, CommonJS, a require of Node's own, and an import()
// of a module named at run time, which goes through the loader's (kernel/import-module.ts).
const BUNDLE = `#!/usr/bin/env node
const os = require('node:os');
exports.loaded = true;
const line = Number(new Error().stack.split('\\n')[1].match(/:(\\d+):\\d+\\)?$/)[1]);
console.log(JSON.stringify({ filename: __filename, dirname: __dirname, exportsIsModuleExports: exports === module.exports, line, platform: os.platform() === process.platform }));
globalThis[Symbol.for('headcount.importModule')]('node:path').then((p) => console.log(JSON.stringify({ dynamicImport: typeof p.join })));
`;

let dir: string;
let bundle: string;
const cacheFile = () => `${bundle}.${process.version}-${process.arch}.cache`;

function run(env: NodeJS.ProcessEnv = {}) {
  const harness = `import { runBundle } from ${JSON.stringify(pathToFileURL(LOADER).href)};\nconst r = runBundle(new URL(${JSON.stringify(pathToFileURL(bundle).href)}));\nconsole.log(JSON.stringify(r));\n`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', harness], { encoding: 'utf8', env: { ...process.env, ...env } });
  const lines = result.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  return { status: result.status, stderr: result.stderr, bundle: lines[0]!, run: lines[1]!, dynamic: lines[2]! };
}

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'code-cache-'));
  bundle = path.join(dir, 'app.bundle.cjs');
  writeFileSync(bundle, BUNDLE);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('runBundle', () => {
  it('runs a bundle as CommonJS, writes its code cache at exit, and uses it on the next run', () => {
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(first.bundle).toEqual({ filename: bundle, dirname: dir, exportsIsModuleExports: true, line: 4, platform: true });
    expect(first.dynamic).toEqual({ dynamicImport: 'function' });
    expect(first.run).toEqual({ cache: 'written-after-miss' });
    expect(existsSync(cacheFile())).toBe(true);

    const second = run();
    expect(second.status, second.stderr).toBe(0);
    expect(second.run).toEqual({ cache: 'used' });
    expect(second.bundle).toEqual(first.bundle);
    expect(second.dynamic).toEqual({ dynamicImport: 'function' });
    // Only the cache itself is left beside the bundle: no temporary file.
    expect(readdirSync(dir).sort()).toEqual(['app.bundle.cjs', path.basename(cacheFile())].sort());
  });

  it('refuses a damaged cache or one of another source, runs the same, and writes a good one', () => {
    run();
    writeFileSync(cacheFile(), Buffer.alloc(4096, 7));
    const damaged = run();
    expect(damaged.status, damaged.stderr).toBe(0);
    expect(damaged.run).toEqual({ cache: 'written-after-refusal' });
    expect(damaged.bundle.line).toBe(4);
    const again = run();
    expect(again.status, again.stderr).toBe(0);
    expect(again.run).toEqual({ cache: 'used' });
    expect(again.dynamic).toEqual({ dynamicImport: 'function' });

    // A rebuilt bundle: V8 checks the cache against the source.
    writeFileSync(bundle, BUNDLE.replace('exports.loaded = true;', 'exports.loaded = 2;'));
    const rebuilt = run();
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(rebuilt.run).toEqual({ cache: 'written-after-refusal' });
    const last = run();
    expect(last.status, last.stderr).toBe(0);
    expect(last.run).toEqual({ cache: 'used' });
  });

  it('runs without a cache when HEADCOUNT_CODE_CACHE=0, and when none can be written', () => {
    const off = run({ HEADCOUNT_CODE_CACHE: '0' });
    expect(off.status, off.stderr).toBe(0);
    expect(off.run).toEqual({ cache: 'off' });
    expect(existsSync(cacheFile())).toBe(false);

    // The cache's path taken by a folder: the rename fails (as in a read-only install), silently.
    mkdirSync(path.join(cacheFile(), 'occupied'), { recursive: true });
    const blocked = run();
    expect(blocked.status, blocked.stderr).toBe(0);
    expect(blocked.stderr).toBe('');
    expect(blocked.bundle.filename).toBe(bundle);
    expect(readdirSync(dir).sort()).toEqual(['app.bundle.cjs', path.basename(cacheFile())].sort());
  });
});
