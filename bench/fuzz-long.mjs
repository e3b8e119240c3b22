#!/usr/bin/env node
// Long run of the route fuzzer (test/fuzz/routes.fuzz.test.ts): the same generators and
// properties, more requests. The suite is TypeScript, so this runs it through vitest with
// FUZZ_RUNS (requests in all, spread over the operations) and FUZZ_SEED set.
//   node bench/fuzz-long.mjs --runs 20000 --seed 42
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string', default: String(Date.now() % 1_000_000) } },
});
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
console.log(`fuzzing every route: FUZZ_RUNS=${values.runs} FUZZ_SEED=${values.seed}`);
const result = spawnSync('npx', ['vitest', 'run', 'test/fuzz/routes.fuzz.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: values.runs, FUZZ_SEED: values.seed },
});
process.exit(result.status ?? 1);
