#!/usr/bin/env node
/**
 * Builds the plugin into dist/ with esbuild (installed with vite). The adapter utilities
 * (@service/adapter-utils, a workspace package that is not on the registry) are bundled in, so
 * the package has no runtime dependency to fetch when installed from a tarball or the registry;
 * `import('node-pty')` is pointed at src/pty-host.ts, which finds node-pty at run time (it is
 * native and optional). The UI parser is built on its own, with nothing bundled into it.
 */
import { build } from 'esbuild';
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
// Built next to dist/ and swapped in at the end, so a reader never sees a half-written build.
const out = path.join(here, `dist-${process.pid}.tmp`);
rmSync(out, { recursive: true, force: true });

const common = { bundle: true, format: 'esm', target: 'node20', logLevel: 'warning', absWorkingDir: here, legalComments: 'none' };

await build({
  ...common,
  entryPoints: { index: 'src/index.ts', server: 'src/server.ts', 'cli-formatter': 'src/cli-formatter.ts' },
  outdir: out,
  platform: 'node',
  // index and server share one chunk instead of two copies of the adapter.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  // The workspace utilities are read from source, as the tests do.
  conditions: ['source'],
  alias: { 'node-pty': './src/pty-host.ts' },
  // Bundled CommonJS (which, isexe) may call require() for Node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});

await build({ ...common, entryPoints: { 'ui-parser': 'src/ui-parser.ts' }, outdir: out, platform: 'neutral' });

rmSync(dist, { recursive: true, force: true });
renameSync(out, dist);
