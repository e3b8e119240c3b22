// Cold start of the headless core: wall time from spawning `node dist/main/cli/headcount.bundle.mjs serve`
// to its `listening on ...` line, on fresh homes (database created and migrated) and on an
// existing home (database opened, nothing to migrate).
// Usage: node bench/cold-start.mjs [--runs 10] [--cli path/to/headcount.bundle.mjs --label name]
// (--cli: another build's entry, e.g. a worktree of an older commit; its result is written as
// <date>-cold-start-<label>.json).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, cli: { type: 'string' }, label: { type: 'string' } } });
const runs = Number(values.runs);
const cli = values.cli ? path.resolve(values.cli) : CLI;
const env = { SERVICE_BOARD_TOKEN: 'hcb_bench-board-token' };

requireBuild();
const info = machine(); // before any load of our own

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const round = (n) => Math.round(n * 10) / 10;
  return { runs: sorted.length, medianMs: round(median), minMs: round(sorted[0]), maxMs: round(sorted[sorted.length - 1]), samplesMs: samples.map(round) };
}

async function once(home) {
  const server = await startServer(home, env, [], cli);
  await stopServer(server);
  return server.startupMs;
}

// One unmeasured start so the first sample does not pay for cold OS file caches alone, nor for
// writing the bundle's code cache (main/cli/code-cache.ts), which a fresh build's first run does.
const warm = tempHome();
await once(warm);
rmSync(warm, { recursive: true, force: true });

const fresh = [];
for (let i = 0; i < runs; i++) {
  const home = tempHome();
  fresh.push(await once(home));
  rmSync(home, { recursive: true, force: true });
}

const existingHome = tempHome();
await once(existingHome); // creates and migrates the database
const existing = [];
for (let i = 0; i < runs; i++) existing.push(await once(existingHome));
rmSync(existingHome, { recursive: true, force: true });

const results = [
  { name: 'fresh home (create + migrate)', ...summary(fresh) },
  { name: 'existing home', ...summary(existing) },
];
const file = writeResult(values.label ? `cold-start-${values.label}` : 'cold-start', { date: new Date().toISOString(), command: 'npm run build && node bench/cold-start.mjs', cli: path.relative(process.cwd(), cli), machine: info, results });

console.log(`\n${info.cpuModel}, ${info.nproc} cores, Node ${info.node}; spawn -> listening line, ${runs} runs each\n`);
console.log('| case | median ms | min ms | max ms |');
console.log('|---|---:|---:|---:|');
for (const r of results) console.log(`| ${r.name} | ${r.medianMs} | ${r.minMs} | ${r.maxMs} |`);
console.log(`\nwritten to ${file}`);
