import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { TranscriptEntry } from '@service/adapter-utils';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Any way a module could reach another: a static or dynamic import, a require, a re-export. */
export const MODULE_REFERENCE = /^\s*import\b|\bimport\s*\(|\brequire\s*\(|^\s*export\b[^;]*?\bfrom\s*['"]/m;

/**
 * The property that matters for a built-in UI parser: the file the server serves
 * (dist/adapters/<folder>/ui-parser.js, bundled by `node bin/build.mjs`) references no other module,
 * so a Worker can run it as is, and run alone it gives what the source parser gives on every
 * recorded line of the adapter's fixtures.
 */
export async function expectServedParserSelfContained(folder: string, parse: (line: string, ts: string) => TranscriptEntry[]): Promise<void> {
  const file = path.join(ROOT, 'dist/adapters', folder, 'ui-parser.js');
  expect(existsSync(file), `${file} is missing: run \`node bin/build.mjs\``).toBe(true);
  const source = readFileSync(file, 'utf8');
  expect(source.match(MODULE_REFERENCE)).toBeNull();
  // A data: module has no base to resolve a relative import against: it loads only when alone.
  const served = await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`);
  const fixtures = path.join(ROOT, 'adapters', folder, 'fixtures');
  const lines = readdirSync(fixtures)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(path.join(fixtures, f), 'utf8').split('\n'));
  expect(lines.length).toBeGreaterThan(0);
  for (const line of [...lines, 'plain text', '\x1b[31m{"type":"x"}\r', '{']) expect(served.parseStdoutLine(line, 'ts')).toEqual(parse(line, 'ts'));
  expect(served.default.parseStdoutLine).toBe(served.parseStdoutLine);
}
