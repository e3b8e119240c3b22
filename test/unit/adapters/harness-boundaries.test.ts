import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { MODULE_REFERENCE } from './served-ui-parser.js';
import { cliOutcome, cwdSessionCodec, ownUsage, resumableSession, UnknownSessionError } from '@service/adapter-utils';

const ADAPTERS = path.resolve(import.meta.dirname, '../../../adapters');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (['fixtures', 'dist', 'node_modules'].includes(name)) return [];
    if (statSync(file).isDirectory()) return sources(file);
    return /\.(ts|mts)$/.test(name) ? [file] : [];
  });
}

describe('adapter boundaries', () => {
  it('an adapter imports only @service/adapter-utils and its own folder', () => {
    const folders = readdirSync(ADAPTERS).filter((d) => d !== 'utils' && statSync(path.join(ADAPTERS, d)).isDirectory());
    const offenders: string[] = [];
    for (const folder of folders) {
      const root = path.join(ADAPTERS, folder);
      for (const file of sources(root)) {
        for (const m of readFileSync(file, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)) {
          const spec = m[1]!;
          const inside = spec.startsWith('.') && path.resolve(path.dirname(file), spec).startsWith(root + path.sep);
          if (!inside && spec.startsWith('.')) offenders.push(`${path.relative(ADAPTERS, file)} -> ${spec}`);
          if (spec.startsWith('@service/') && !/^@service\/adapter-utils(\/config)?$/.test(spec)) offenders.push(`${path.relative(ADAPTERS, file)} -> ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('a UI parser compiled but not bundled is caught by the served-parser check', async () => {
    const compiled = await transform(readFileSync(path.join(ADAPTERS, 'vendor-a-local/ui-parser.ts'), 'utf8'), { loader: 'ts', format: 'esm' });
    expect(compiled.code).toMatch(MODULE_REFERENCE);
    for (const reference of ['export { a } from "./a.js";', 'const a = require("a");', 'const a = await import("a");']) expect(reference).toMatch(MODULE_REFERENCE);
    expect('const important = "imports are fine in text"; export { important };').not.toMatch(MODULE_REFERENCE);
  });
});

describe('CLI harness', () => {
  const run = { exitCode: 0, signal: null, timedOut: false, idleTimedOut: false };
  const base = { name: 'Tool', run, usage: null, summary: null, error: null, session: { sessionId: 's2', cwd: '/w' }, finished: true, noResult: 'ended without a result line', plainLines: [] };

  it('an unknown session clears the stored one before any other outcome', () => {
    const result = cliOutcome({ ...base, error: new UnknownSessionError('no conversation found', 's1'), run: { ...run, idleTimedOut: true } });
    expect(result).toMatchObject({ errorCode: 'unknown_session', sessionParams: null });
  });

  it('a clean exit without a result is a failure and keeps the stored session unless asked', () => {
    expect(cliOutcome({ ...base, finished: false, plainLines: ['a', 'b'] })).toEqual({ exitCode: 0, signal: null, timedOut: false, usage: null, summary: null, errorCode: 'no_result', errorMessage: 'Tool ended without a result line: a / b' });
    expect(cliOutcome({ ...base, finished: false, keepSessionUnfinished: true })).toMatchObject({ errorCode: 'no_result', sessionParams: { sessionId: 's2' } });
    expect(cliOutcome(base)).toEqual({ exitCode: 0, signal: null, timedOut: false, usage: null, summary: null, sessionParams: { sessionId: 's2', cwd: '/w' } });
  });

  it('sessions resume only in their own folder; cumulative usage becomes the heartbeat’s own', () => {
    const codec = cwdSessionCodec({ idKey: 'threadId', totals: true });
    expect(codec.deserialize({ threadId: 'bad id!', cwd: '/w' })).toBeNull();
    const stored = { threadId: 't1', cwd: '/w', totals: { input: 100, cached: 10, output: 5 } };
    expect(codec.serialize(codec.deserialize(stored)!)).toEqual(stored);
    expect(resumableSession(codec, stored, '/w')?.threadId).toBe('t1');
    expect(resumableSession(codec, stored, '/elsewhere')).toBeNull();
    expect(ownUsage({ input: 150, cached: 30, output: 9 }, stored.totals, true)).toEqual({ input: 50, cached: 20, output: 4 });
    expect(ownUsage({ input: 150, cached: 30, output: 9 }, stored.totals, false)).toEqual({ input: 150, cached: 30, output: 9 });
  });
});
