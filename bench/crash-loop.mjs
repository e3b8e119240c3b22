#!/usr/bin/env node
// Long crash loop: the crash-safety test (test/reliability/crash.test.ts) with many more SIGKILL /
// restart cycles. The suite is TypeScript, so this runs it through vitest with CRASH_CYCLES and
// CRASH_SEED set; per-cycle figures (kill time, acknowledged writes so far, runs left active by the
// dead server, their surviving processes, checkouts adopted) go to bench/results/<date>-crash-loop.json.
// Needs the built server (`npm run build`).
//   node bench/crash-loop.mjs --cycles 50 --seed 7
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, machine, requireBuild, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({
  options: { cycles: { type: 'string', default: '50' }, seed: { type: 'string', default: String(Date.now() % 1_000_000) } },
});
requireBuild();
const info = machine();
const scratch = tempHome('headcount-crash-loop-');
const out = path.join(scratch, 'summary.json');
console.log(`crash loop: CRASH_CYCLES=${values.cycles} CRASH_SEED=${values.seed}`);
const started = Date.now();
const result = spawnSync('npx', ['vitest', 'run', 'test/reliability/crash.test.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, CRASH_CYCLES: values.cycles, CRASH_SEED: values.seed, CRASH_RESULT: out },
});
let summary = null;
try {
  summary = JSON.parse(readFileSync(out, 'utf8'));
} catch {
  // the test failed before writing its summary; vitest printed why
}
rmSync(scratch, { recursive: true, force: true });
const cycles = summary?.cycles ?? [];
const file = writeResult('crash-loop', {
  date: new Date().toISOString(),
  command: `npm run build && node bench/crash-loop.mjs --cycles ${values.cycles} --seed ${values.seed}`,
  machine: info,
  passed: result.status === 0,
  wallSec: Math.round((Date.now() - started) / 1000),
  cyclesRun: cycles.length,
  acknowledgedWrites: cycles.at(-1)?.acknowledged ?? 0,
  cyclesWithActiveRunsAtKill: cycles.filter((c) => c.staleRuns > 0).length,
  runsLeftActiveByKills: cycles.reduce((n, c) => n + c.staleRuns, 0),
  processesAliveAfterKills: cycles.reduce((n, c) => n + c.orphansAtKill, 0),
  checkoutsAdopted: cycles.reduce((n, c) => n + c.adoptedCheckouts, 0),
  keyCheckoutsReleased: cycles.reduce((n, c) => n + (c.releasedKeyCheckouts ?? 0), 0),
  summary,
});
console.log(`${result.status === 0 ? 'passed' : 'FAILED'}: ${cycles.length} cycles; written to ${file}`);
process.exit(result.status ?? 1);
