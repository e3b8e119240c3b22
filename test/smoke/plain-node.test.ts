import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const builtCore = path.join(root, 'dist/main/core/index.js');

describe('the built core under plain node', () => {
  it('loads without electron and serves one request', () => {
    expect(existsSync(builtCore), 'run `npm run build` first (npm test does)').toBe(true);
    const home = mkdtempSync(path.join(os.tmpdir(), 'headcount-smoke-'));
    // A separate node process with no test runner, no loaders and no TypeScript: what users run.
    // A separate node process with no test runner and no TypeScript: what users run. A resolve
    // hook refuses any `electron` import, so this fails even once electron is installed.
    const hook = `export async function resolve(spec, ctx, next) {
      if (spec === 'electron' || spec.startsWith('electron/')) throw new Error('electron imported by ' + ctx.parentURL);
      return next(spec, ctx);
    }`;
    const script = `
      import { register } from 'node:module';
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
      const { createCore } = await import(${JSON.stringify(builtCore)});
      const { memoryKeyProvider } = await import(${JSON.stringify(path.join(root, 'dist/main/core/secrets/master-key.js'))});
      const core = await createCore({ home: process.argv[1], port: 0, keyProvider: memoryKeyProvider(), logger: { info() {}, warn() {}, error() {} } });
      const res = await fetch(core.url + '/api/health');
      const body = await res.json();
      await core.close();
      console.log(JSON.stringify({ status: res.status, body }));
    `;
    try {
      const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, home], { encoding: 'utf8', timeout: 20_000 });
      const result = JSON.parse(out.trim().split('\n').pop()!);
      expect(result.status).toBe(200);
      expect(result.body.status).toBe('ok');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
