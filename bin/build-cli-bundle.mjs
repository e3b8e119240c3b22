#!/usr/bin/env node
// Bundles the built CLI into single files: dist/main/cli/headcount.bundle.cjs (the `headcount`
// command, `serve` included) and dist/main/cli/start.bundle.cjs (`npm start`), each started by a
// two-line loader beside it (headcount.bundle.mjs, start.bundle.mjs) that runs it with V8's code
// cache (main/cli/code-cache.ts). Loaded from some 700 modules, the server spent most of its
// start-up resolving, reading and compiling them: about 1.1-1.2 s from spawn to listening on the
// 2-core machine of bench/README.md, against 0.6-0.8 s from one file, and about 0.56 s from one file
// with its compiled code cached (issue 17, "cold start to serving ≤ 1 s"). CommonJS because Node 20
// caches no compiled code for ES modules; `import.meta.url` becomes the bundle's own file URL. The
// bundles stay next to the modules they come from, so everything found relative to the package
// root (migrations, the board, skill files, the demo agent) is found the same way. Native addons
// and Electron stay outside, loaded from node_modules as before. Run by bin/build.mjs after the
// core's tsc, in the same step.
import { build } from 'esbuild';
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Packages loaded at run time, never inlined: native addons, Electron, and optional native speed-ups of ws. */
export const EXTERNAL = ['better-sqlite3', 'node-pty', '@napi-rs/keyring', 'electron', 'bufferutil', 'utf-8-validate'];

const ENTRIES = { headcount: 'dist/main/cli/index.js', start: 'dist/main/cli/start.js' };

export async function buildCliBundles() {
  const outdir = path.join(root, 'dist', 'main', 'cli');
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir,
    outExtension: { '.js': '.bundle.cjs' },
    bundle: true,
    splitting: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    define: { 'import.meta.url': '__bundleUrl' },
    // import() of node-pty and the keychain becomes require() (both are CommonJS): a script run
    // from V8's code cache has no import() of its own on Node 20. A plugin's entry, which may be
    // an ES module, is imported through main/core/kernel/import-module.ts instead.
    supported: { 'dynamic-import': false },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    legalComments: 'none',
    // Whitespace and syntax only: names stay, for stack traces and profiles. Less source to parse
    // on the start that writes the code cache (5.7 MB unminified).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
  for (const name of Object.keys(ENTRIES)) {
    const loader = path.join(outdir, `${name}.bundle.mjs`);
    writeFileSync(
      loader,
      `#!/usr/bin/env node\n// Written by bin/build-cli-bundle.mjs: runs ${name}.bundle.cjs with V8's code cache.\nimport { runBundle } from './code-cache.js';\nrunBundle(new URL('./${name}.bundle.cjs', import.meta.url));\n`,
    );
    chmodSync(loader, 0o755);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildCliBundles();
}
