// Cold start of the headless core: wall time from spawning `node dist/main/cli/headcount.bundle.mjs serve`
// to its `listening on ...` line, on fresh homes (database created and migrated) and on an
// existing home (database opened, nothing to migrate).
// Usage: node bench/cold-start.mjs [--runs 10] [--cli path/to/headcount.bundle.mjs --label name] [--home dir]
// (--home: an existing home instead, e.g. the 100,000-issue one `bench/scale.mjs --keep` leaves;
// after one unmeasured start that applies any migration, each start is timed and the server's
// resident memory read at its listening line and again 5 s later, idle: issue 17's goals of a
// start within 1 s and an idle RSS within 150 MiB at that size).
// (--cli: another build's entry, e.g. a worktree of an older commit; its result is written as
// <date>-cold-start-<label>.json).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CLI, machine, requireBuild, rssMiB, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' }, cli: { type: 'string' }, label: { type: 'string' }, home: { type: 'string' } } });
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

if (values.home) {
  const home = path.resolve(values.home);
  await once(home); // applies any migration, unmeasured
  const starts = [];
  const rss = [];
  for (let i = 0; i < runs; i++) {
    const server = await startServer(home, env, [], cli);
    starts.push(server.startupMs);
    const atListening = rssMiB(server.child.pid);
    await new Promise((r) => setTimeout(r, 5000));
    rss.push({ atListening, idle5s: rssMiB(server.child.pid) });
    await stopServer(server);
  }
  const result = { name: `existing home ${home}`, ...summary(starts), rssMiB: rss };
  const file = writeResult(`cold-start-home${values.label ? `-${values.label}` : ''}`, { date: new Date().toISOString(), command: 'node bench/cold-start.mjs --home <dir>', cli: path.relative(process.cwd(), cli), machine: info, results: [result] });
  console.log(`\n${info.cpuModel}, ${info.nproc} cores, Node ${info.node}; spawn -> listening line on ${home}, ${runs} starts`);
  console.log(`median ${result.medianMs} ms (min ${result.minMs}, max ${result.maxMs}); RSS MiB at listening / 5 s later: ${rss.map((r) => `${r.atListening}/${r.idle5s}`).join(', ')}`);
  console.log(`written to ${file}`);
  process.exit(0);
}

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
