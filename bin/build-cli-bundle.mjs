#!/usr/bin/env node
// Bundles the built CLI into single files: dist/main/cli/headcount.bundle.mjs (the `headcount`
// command, `serve` included) and dist/main/cli/start.bundle.mjs (`npm start`). Loaded from some
// 700 modules, the server spent most of its start-up resolving, reading and compiling them: about
// 1.1-1.2 s from spawn to listening on the 2-core machine of bench/README.md, against 0.6-0.8 s
// from one file (issue 17, "cold start to serving ≤ 1 s"). The bundles stay next to the modules
// they come from, so everything found relative to the package root (migrations, the board, skill
// files, the demo agent) is found the same way. Native addons and Electron stay outside, loaded
// from node_modules as before. Run by bin/build.mjs after the core's tsc, in the same step.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Packages loaded at run time, never inlined: native addons, Electron, and optional native speed-ups of ws. */
export const EXTERNAL = ['better-sqlite3', 'node-pty', '@napi-rs/keyring', 'electron', 'bufferutil', 'utf-8-validate'];

export async function buildCliBundles() {
  await build({
    absWorkingDir: root,
    entryPoints: { headcount: 'dist/main/cli/index.js', start: 'dist/main/cli/start.js' },
    outdir: path.join(root, 'dist', 'main', 'cli'),
    outExtension: { '.js': '.bundle.mjs' },
    bundle: true,
    splitting: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS dependencies inside an ES module bundle call `require` for Node's own modules.
    banner: { js: "import { createRequire as __headcountRequire } from 'node:module'; const require = __headcountRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCliBundles();
}
