// Wake -> agent process spawned, for each kind of wake the API raises: invoke, an issue assigned,
// an @mention in a comment. The agent prints `performance.timeOrigin` (the epoch ms its process
// started, before Node's own start-up) as its first line; the sample is that instant minus the
// instant the request was sent. Runs the built server (`npm run build` first); about 20 s.
//   node bench/wake.mjs [--runs 20] [--sandbox on|off]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' }, sandbox: { type: 'string', default: 'on' } } });
const RUNS = Number(values.runs);
const SANDBOX = values.sandbox !== 'off';
const TOKEN = 'hcb_bench-board-token';

requireBuild();
const info = machine();
const home = tempHome();
// The agent's working folder: outside the data home, which the sandbox hides.
const cwd = mkdtempSync(path.join(os.homedir(), '.hc-bench-wake-'));
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
process.on('exit', () => server.child.exitCode === null && server.child.kill('SIGKILL'));
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function api(method, p, body) {
  const res = await fetch(server.url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const company = await api('POST', '/api/companies', { name: 'Wake Bench Co' });
const agent = await api('POST', `/api/companies/${company.id}/agents`, {
  name: 'Sprinter',
  adapterType: 'process',
  adapterConfig: { command: process.execPath, args: ['-e', 'console.log("spawned " + performance.timeOrigin)'], cwd, timeoutSec: 30, ...(SANDBOX ? {} : { sandbox: false }) },
});

/** Waits for the agent's newest run to end and returns the epoch ms its process started. */
async function spawnedAt(previousRunId) {
  for (let i = 0; i < 400; i++) {
    const runs = await api('GET', `/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}&limit=1`);
    const run = runs.items[0];
    if (run && run.id !== previousRunId && !['queued', 'running'].includes(run.status)) {
      const log = await api('GET', `/api/heartbeat-runs/${run.id}/log`);
      const text = JSON.stringify(log);
      const m = /spawned (\d+(?:\.\d+)?)/.exec(text);
      if (!m) throw new Error(`run ${run.id} (${run.status}) printed no start time: ${text.slice(0, 400)}`);
      return { runId: run.id, at: Number(m[1]), trigger: run.trigger };
    }
    await sleep(10);
  }
  throw new Error('the run did not end');
}

const round = (n) => Math.round(n * 10) / 10;
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, p50: round(q(0.5)), p95: round(q(0.95)), max: round(s[s.length - 1]) };
}

const kinds = {
  invoke: async () => api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, {}),
  assignment: async () => {
    const issue = await api('POST', `/api/companies/${company.id}/issues`, { title: `Task ${Math.random()}`, status: 'todo' });
    const sent = performance.timeOrigin + performance.now();
    await api('PATCH', `/api/issues/${issue.id}`, { assigneeAgentId: agent.id });
    return sent;
  },
  mention: async () => {
    const issue = await api('POST', `/api/companies/${company.id}/issues`, { title: `Question ${Math.random()}`, status: 'todo' });
    const sent = performance.timeOrigin + performance.now();
    await api('POST', `/api/issues/${issue.id}/comments`, { body: `@${agent.urlKey} a look, please` });
    return sent;
  },
};

const results = {};
let last = null;
for (const [kind, wake] of Object.entries(kinds)) {
  const samples = [];
  for (let i = 0; i < RUNS; i++) {
    const before = performance.timeOrigin + performance.now();
    const sentAt = (await wake()) ?? before;
    const spawned = await spawnedAt(last);
    last = spawned.runId;
    samples.push(spawned.at - (typeof sentAt === 'number' ? sentAt : before));
  }
  results[kind] = stats(samples);
  process.stderr.write(`${kind}: p50 ${results[kind].p50} ms, p95 ${results[kind].p95} ms\n`);
}

await stopServer(server);
rmSync(home, { recursive: true, force: true });
rmSync(cwd, { recursive: true, force: true });
const file = writeResult(`wake-${SANDBOX ? 'sandbox' : 'nosandbox'}`, { machine: info, runs: RUNS, sandbox: SANDBOX, results });
console.log(`\n### wake -> agent process spawned (${RUNS} runs each, sandbox ${SANDBOX ? 'on' : 'off'}), ms from sending the request\n`);
console.log('| wake | p50 | p95 | max |\n|---|---:|---:|---:|');
for (const [kind, s] of Object.entries(results)) console.log(`| ${kind} | ${s.p50} | ${s.p95} | ${s.max} |`);
console.log(`\nrecorded in ${path.relative(process.cwd(), file)}; load average at start ${info.loadAverage1m5m15m?.join(' ')}`);
