#!/usr/bin/env node
// Builds what changed, and only that: each step (adapter utilities, core, plugin bundle, board) is
// skipped when a fingerprint of its inputs (every file's path, size and mtime) matches the one
// stored after its last successful build and its output is still there. A warm `npm start` with
// nothing changed therefore spends milliseconds here instead of a full TypeScript and Vite build.
// `--force` rebuilds everything.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampsFile = path.join(root, 'dist', '.build-stamps.json');
const bin = (name) => path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const SKIP_DIRS = new Set(['node_modules', 'dist', 'fixtures', '.git']);

// Files that change what every step produces: compiler settings and the installed dependencies.
const shared = ['package.json', 'package-lock.json', 'tsconfig.json'];

const steps = [
  {
    name: 'adapter utilities',
    inputs: [...shared, 'adapters/utils/src', 'adapters/utils/tsconfig.json', 'adapters/utils/package.json'],
    output: 'adapters/utils/dist/index.js',
    run: [[bin('tsc'), ['-p', 'adapters/utils/tsconfig.json']]],
  },
  {
    name: 'core',
    inputs: [...shared, 'tsconfig.build.json', 'main', 'adapters', 'preload', 'bin/build-ui-parsers.mjs', 'bin/build-cli-bundle.mjs'],
    output: 'dist/main/cli/headcount.bundle.mjs',
    // tsc emits every adapter file; the UI parsers are then re-emitted as self-contained bundles
    // (bin/build-ui-parsers.mjs), in the same step so that no tsc run can leave a stale one behind.
    run: [
      [bin('tsc'), ['-p', 'tsconfig.build.json']],
      [process.execPath, ['bin/build-ui-parsers.mjs']],
      // The CLI as one file each for `headcount` and `npm start`: it starts in about half the time.
      [process.execPath, ['bin/build-cli-bundle.mjs']],
    ],
  },
  {
    name: 'plugin bundle',
    inputs: [...shared, 'adapters/vendor-i-local', 'adapters/utils/src'],
    output: 'adapters/vendor-i-local/dist/index.js',
    run: [[process.execPath, ['adapters/vendor-i-local/build.mjs']]],
  },
  {
    name: 'board',
    // The renderer imports the core's contract files and the UI-parser contract.
    inputs: [...shared, 'renderer', 'main/core', 'adapters/utils/src'],
    output: 'dist/renderer/index.html',
    run: [[bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']]],
  },
];

function walk(rel, hash) {
  const abs = path.join(root, rel);
  let st;
  try {
    st = statSync(abs);
  } catch {
    hash.update(`${rel}\0missing\n`);
    return;
  }
  if (st.isDirectory()) {
    for (const entry of readdirSync(abs).sort()) {
      if (SKIP_DIRS.has(entry) || entry.startsWith('dist-')) continue;
      walk(path.join(rel, entry), hash);
    }
    return;
  }
  hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
}

export function fingerprint(inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) walk(input, hash);
  return hash.digest('hex');
}

function readStamps() {
  try {
    return JSON.parse(readFileSync(stampsFile, 'utf8'));
  } catch {
    return {};
  }
}

export function build({ force = false, log = console.log } = {}) {
  const stamps = readStamps();
  const built = [];
  for (const step of steps) {
    const print = fingerprint(step.inputs);
    if (!force && stamps[step.name] === print && existsSync(path.join(root, step.output))) continue;
    for (const [cmd, args] of step.run) {
      const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
      if (res.status !== 0) {
        throw new Error(`build step "${step.name}" failed (${res.error?.message ?? `exit ${res.status}`})`);
      }
    }
    // Stored after each step, so a failure later keeps what already succeeded.
    stamps[step.name] = print;
    mkdirSync(path.dirname(stampsFile), { recursive: true });
    writeFileSync(stampsFile, JSON.stringify(stamps, null, 2) + '\n');
    built.push(step.name);
  }
  log(built.length ? `built: ${built.join(', ')}` : 'build: up to date');
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build({ force: process.argv.includes('--force') });
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
