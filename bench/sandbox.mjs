// The agent sandbox's cost per run start: wall time from runChildProcess() (the process runner every
// adapter uses) to the first output of a trivial process (`sh -c 'echo ready'`), with the sandbox
// (bubblewrap: private /tmp, hidden data home, PID namespace) and without it, interleaved so both
// see the same machine load. Pipes and a PTY. Usage: node bench/sandbox.mjs [--runs 60]
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machine, ROOT, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '60' } } });
const runs = Number(values.runs);
const utils = await import(path.join(ROOT, 'adapters', 'utils', 'dist', 'index.js'));
const status = utils.sandboxStatus();
if (!status.available) {
  console.error(`the sandbox is not available here (${status.reason}): ${status.installHint ?? ''}`);
  process.exit(1);
}
const info = machine();
const home = tempHome('headcount-bench-sandbox-');
const cwd = path.join(home, 'work');
mkdirSync(cwd);
const policy = { hidden: [path.join(home, 'data')], stateDirs: ['.claude/'] };
mkdirSync(policy.hidden[0]);

async function once(sandbox, pty) {
  const started = performance.now();
  let first = null;
  await utils.runChildProcess('sh', {
    args: ['-c', 'echo ready'],
    cwd,
    pty,
    confinement: { inheritEnv: [], sandbox: sandbox ? policy : null },
    onStdout: () => (first ??= performance.now() - started),
  });
  return first;
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (n) => Math.round(n * 10) / 10;
  return { runs: sorted.length, medianMs: round(at(0.5)), p95Ms: round(at(0.95)), minMs: round(sorted[0]), maxMs: round(sorted.at(-1)) };
}

const results = {};
for (const pty of [false, true]) {
  const samples = { sandbox: [], none: [] };
  // Warm the page cache first.
  for (let i = 0; i < 3; i++) {
    await once(true, pty);
    await once(false, pty);
  }
  for (let i = 0; i < runs; i++) {
    samples.sandbox.push(await once(true, pty));
    samples.none.push(await once(false, pty));
  }
  const mode = pty ? 'pty' : 'pipes';
  results[mode] = { withSandbox: summary(samples.sandbox), withoutSandbox: summary(samples.none) };
  console.log(`${mode}: with sandbox median ${results[mode].withSandbox.medianMs} ms, p95 ${results[mode].withSandbox.p95Ms} ms; without median ${results[mode].withoutSandbox.medianMs} ms, p95 ${results[mode].withoutSandbox.p95Ms} ms`);
}
rmSync(home, { recursive: true, force: true });
const file = writeResult('sandbox', { machine: info, runs, results });
console.log(`written to ${file}`);
