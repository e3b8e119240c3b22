#!/usr/bin/env node
// Bundles each built-in adapter's UI parser (adapters/<folder>/ui-parser.ts) into the one file the
// server serves, dist/adapters/<folder>/ui-parser.js, replacing what tsc emitted there. The board
// runs that file as source text in a Worker, so it may import nothing: the parser's imports of
// @service/adapter-utils are resolved to the package's browser face (src/ui-parse/index.ts) and
// bundled in. The core's own imports of the parser (descriptors, run-watch formatters) load the
// same file, which keeps the exports tsc gave it. Run by bin/build.mjs after the core's tsc.
import { build } from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The adapter folders that have a ui-parser.ts of their own (plugins such as vendor-i-local build theirs). */
export function builtinParserFolders() {
  const adapters = path.join(root, 'adapters');
  return readdirSync(adapters, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'utils' && existsSync(path.join(adapters, d.name, 'ui-parser.ts')))
    .map((d) => d.name)
    .sort();
}

export async function buildUiParsers() {
  const folders = builtinParserFolders();
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(folders.map((f) => [`${f}/ui-parser`, `adapters/${f}/ui-parser.ts`])),
    outdir: path.join(root, 'dist', 'adapters'),
    bundle: true,
    // One file per parser: no chunk shared between two of them.
    splitting: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: true,
    legalComments: 'none',
    logLevel: 'warning',
    alias: { '@service/adapter-utils': './adapters/utils/src/ui-parse/index.ts' },
  });
  return folders;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildUiParsers();
}
