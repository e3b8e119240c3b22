// Soak: a paced mixed workload against the built server for a long time (default one hour), with the
// server's resident memory sampled every minute. The question it answers: does memory stay flat
// once warm, and do the routes slow down as the data grows?
//   node bench/soak.mjs [--minutes 60] [--warmup 10] [--rate 30] [--run-every 5]
// --rate: board/agent requests per second across all workers (paced, so the machine's other work
// does not change what is asked of the server); --run-every: seconds between heartbeat runs of the
// fake agent CLI (each a real child process making 5 API calls). Partial results are written every
// minute, so a soak cut short still leaves its samples.
import { readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    rate: { type: 'string', default: '30' },
    'run-every': { type: 'string', default: '5' },
    'sample-sec': { type: 'string', default: '60' },
  },
});
const MINUTES = Number(values.minutes);
const WARMUP_MIN = Number(values.warmup);
const RATE = Number(values.rate);
const RUN_EVERY_MS = Number(values['run-every']) * 1000;
const SAMPLE_MS = Number(values['sample-sec']) * 1000;
const TOKEN = 'hcb_bench-board-token';
const FAKE_AGENT = path.join(ROOT, 'test', 'fixtures', 'fake-agent.mjs');
const log = (s) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);

requireBuild();
const info = machine();
const home = tempHome('headcount-soak-');
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const serverPid = server.child.pid;
process.on('exit', () => server.child.exitCode === null && server.child.kill('SIGKILL'));
const board = { authorization: `Bearer ${TOKEN}` };

async function call(method, p, body, headers = board, expect = [200, 201, 202]) {
  const isForm = body instanceof FormData;
  const res = await fetch(server.url + p, {
    method,
    headers: body === undefined || isForm ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw Object.assign(new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`), { status: res.status });
  return text ? JSON.parse(text) : null;
}

const round = (n, d = 1) => (n === null || n === undefined || Number.isNaN(n) ? null : Math.round(n * 10 ** d) / 10 ** d);
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return { n: 0, p50: null, p99: null, max: null };
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, p50: round(q(0.5)), p99: round(q(0.99)), max: round(s[s.length - 1]) };
}
const proc = (field) => {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${serverPid}/status`, 'utf8'));
  return m ? Number(m[1]) : null;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pick = (xs) => xs[Math.floor(Math.random() * xs.length)];
const dirBytes = (dir) => {
  try {
    return readdirSync(dir).reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
  } catch {
    return 0;
  }
};
const fileBytes = (f) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

// ---------------------------------------------------------------------------------------------
// Setup: one company, 10 agents with keys (checkout/comment as agents), 5 fake-agent CLIs.
const company = await call('POST', '/api/companies', { name: 'Soak Co' });
const workers = [];
for (let i = 0; i < 10; i++) {
  const agent = await call('POST', `/api/companies/${company.id}/agents`, { name: `Worker ${i}`, role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } });
  const { key } = await call('POST', `/api/agents/${agent.id}/keys`, {});
  workers.push({ ...agent, headers: { authorization: `Bearer ${key}` } });
}
const runners = [];
for (let i = 0; i < 5; i++) {
  runners.push(
    await call('POST', `/api/companies/${company.id}/agents`, {
      name: `Fake CLI ${i}`,
      role: 'engineer',
      adapterType: 'process',
      adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'work' }, timeoutSec: 60, graceMs: 500 },
    }),
  );
}
const project = await call('POST', `/api/companies/${company.id}/projects`, { name: 'Soak project' });
const issues = []; // { id, doc: revisionId | null }
for (let i = 0; i < 50; i++) issues.push({ id: (await call('POST', `/api/companies/${company.id}/issues`, { title: `Seed ${i}`, status: 'todo', projectId: project.id })).id, doc: null });

// ---------------------------------------------------------------------------------------------
// The workload: each operation names itself; latencies are kept per operation and per minute.
const ops = {
  'issue.create': async () => {
    const issue = await call('POST', `/api/companies/${company.id}/issues`, { title: `Soak ${Date.now()}`, status: 'todo', priority: pick(['low', 'medium', 'high']) });
    issues.push({ id: issue.id, doc: null });
  },
  'issue.list': () => call('GET', `/api/companies/${company.id}/issues`),
  'issue.list.todo': () => call('GET', `/api/companies/${company.id}/issues?status=todo`),
  'issue.get': () => call('GET', `/api/issues/${pick(issues).id}`),
  'comment.create': () => call('POST', `/api/issues/${pick(issues).id}/comments`, { body: `A soak comment ${'x'.repeat(Math.floor(Math.random() * 400))}` }),
  'comment.list': () => call('GET', `/api/issues/${pick(issues).id}/comments`),
  'checkout.cycle': async () => {
    // An agent takes a todo issue, comments as itself and releases it (expected conflicts: 409).
    const w = pick(workers);
    const issue = pick(issues);
    const res = await call('POST', `/api/issues/${issue.id}/checkout`, { expectedStatuses: ['todo'] }, w.headers, [200, 409]);
    if (res && res.checkoutAgentId === w.id) {
      await call('POST', `/api/issues/${issue.id}/comments`, { body: 'on it' }, w.headers);
      await call('POST', `/api/issues/${issue.id}/release`, undefined, w.headers);
    }
  },
  'document.put': async () => {
    const issue = pick(issues);
    const doc = await call('PUT', `/api/issues/${issue.id}/documents/notes`, { title: 'Notes', format: 'markdown', body: `# Notes\n${'line\n'.repeat(50)}${Date.now()}`, baseRevisionId: issue.doc }, board, [200, 201, 409]);
    if (doc?.revisionId) issue.doc = doc.revisionId;
    else issue.doc = (await call('GET', `/api/issues/${issue.id}/documents/notes`, undefined, board, [200, 404]))?.revisionId ?? null;
  },
  'attachment.upload': async () => {
    const form = new FormData();
    form.append('file', new Blob([`soak attachment ${Date.now()}\n`.repeat(100)], { type: 'text/plain' }), 'soak.txt');
    await call('POST', `/api/companies/${company.id}/issues/${pick(issues).id}/attachments`, form);
  },
  'cost.create': () => call('POST', `/api/companies/${company.id}/cost-events`, { agentId: pick(workers).id, provider: 'soak', model: 'soak-1', inputTokens: 100, outputTokens: 20, costCents: 0.5 }),
  'costs.summary': () => call('GET', `/api/companies/${company.id}/costs/summary`),
  'activity.list': () => call('GET', `/api/companies/${company.id}/activity`),
  'agents.list': () => call('GET', `/api/companies/${company.id}/agents`),
  'org.get': () => call('GET', `/api/companies/${company.id}/org`),
  'runs.list': () => call('GET', `/api/companies/${company.id}/heartbeat-runs?limit=20`),
};
// Weights: reads dominate, as on a board someone is watching.
const MIX = [
  ['issue.create', 8], ['issue.list', 10], ['issue.list.todo', 4], ['issue.get', 12], ['comment.create', 15], ['comment.list', 8],
  ['checkout.cycle', 8], ['document.put', 5], ['attachment.upload', 2], ['cost.create', 6], ['costs.summary', 4], ['activity.list', 4],
  ['agents.list', 6], ['org.get', 3], ['runs.list', 5],
];
const TOTAL_WEIGHT = MIX.reduce((n, [, w]) => n + w, 0);
function pickOp() {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const [name, w] of MIX) if ((r -= w) < 0) return name;
  return MIX[0][0];
}

const t0 = performance.now();
const endAt = t0 + MINUTES * 60_000;
let minuteLatencies = new Map(); // op -> ms[] in the current sample interval
const totals = { ops: 0, errors: 0, runsInvoked: 0, runsByStatus: {} };
const errorSamples = [];
const samples = [];

async function timed(name, fn) {
  const s = performance.now();
  try {
    await fn();
    totals.ops++;
  } catch (err) {
    totals.errors++;
    if (errorSamples.length < 20) errorSamples.push({ op: name, message: String(err.message).slice(0, 300) });
  }
  const ms = performance.now() - s;
  if (!minuteLatencies.has(name)) minuteLatencies.set(name, []);
  minuteLatencies.get(name).push(ms);
}

// Paced: RATE operations a second, each started on schedule (at most 16 in flight).
let inFlight = 0;
const pacer = (async () => {
  const interval = 1000 / RATE;
  let next = performance.now();
  while (performance.now() < endAt) {
    next += interval;
    if (inFlight < 16) {
      inFlight++;
      const name = pickOp();
      void timed(name, ops[name]).finally(() => inFlight--);
    }
    const wait = next - performance.now();
    if (wait > 0) await sleep(wait);
  }
})();

// Heartbeat runs: the fake CLI checks out a fresh todo issue, comments, marks it done, reports cost.
const runner = (async () => {
  while (performance.now() < endAt) {
    const agent = pick(runners);
    await timed('heartbeat.invoke', async () => {
      const issue = await call('POST', `/api/companies/${company.id}/issues`, { title: `Run task ${Date.now()}`, status: 'todo' });
      await call('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { issueId: issue.id });
      totals.runsInvoked++;
    });
    await sleep(RUN_EVERY_MS);
  }
})();

function sample() {
  const minute = round((performance.now() - t0) / 60_000, 2);
  const latency = {};
  for (const [op, xs] of minuteLatencies) latency[op] = stats(xs);
  minuteLatencies = new Map();
  const s = {
    minute,
    rssMiB: round(proc('VmRSS') / 1024),
    hwmMiB: round(proc('VmHWM') / 1024),
    dbBytes: fileBytes(path.join(home, 'service.db')),
    walBytes: fileBytes(path.join(home, 'service.db-wal')),
    runsDirBytes: dirBytes(path.join(home, 'runs')),
    ops: totals.ops,
    errors: totals.errors,
    runsInvoked: totals.runsInvoked,
    issues: issues.length,
    latency,
  };
  samples.push(s);
  log(`min ${minute}: RSS ${s.rssMiB} MiB, db ${round(s.dbBytes / 2 ** 20)} MiB, ${s.ops} ops, ${s.errors} errors, ${s.runsInvoked} runs, issue.list p50 ${latency['issue.list']?.p50} ms`);
  return s;
}

function summary() {
  const after = samples.filter((s) => s.minute >= WARMUP_MIN);
  const rss = after.map((s) => s.rssMiB);
  const mean = rss.length ? rss.reduce((a, b) => a + b, 0) / rss.length : null;
  // Least-squares slope of RSS over the minutes after warm-up: a leak shows as a steady climb;
  // downward dips (V8 handing pages back after a collection) are not growth.
  const xs = after.map((s) => s.minute);
  const mx = xs.reduce((a, b) => a + b, 0) / (xs.length || 1);
  const slope = rss.length > 1 ? xs.reduce((n, x, i) => n + (x - mx) * (rss[i] - mean), 0) / xs.reduce((n, x) => n + (x - mx) ** 2, 0) : null;
  const flat = rss.length
    ? {
        minMiB: Math.min(...rss),
        maxMiB: Math.max(...rss),
        meanMiB: round(mean),
        firstMiB: rss[0],
        lastMiB: rss[rss.length - 1],
        spreadPercentOfMean: round(((Math.max(...rss) - Math.min(...rss)) / mean) * 100),
        maxAboveFirstPercent: round(((Math.max(...rss) - rss[0]) / rss[0]) * 100),
        slopeMiBPerHour: slope === null ? null : round(slope * 60, 2),
      }
    : null;
  // Route latency first vs last 10 minutes after warm-up: does anything slow with the data?
  const window = (xs) => {
    const by = {};
    for (const s of xs) for (const [op, l] of Object.entries(s.latency)) (by[op] ??= []).push(l.p50);
    return Object.fromEntries(Object.entries(by).map(([op, p]) => [op, round(p.sort((a, b) => a - b)[Math.floor(p.length / 2)])]));
  };
  return {
    rssAfterWarmup: flat,
    // Flat: never more than 10% above the RSS at the end of warm-up.
    flatWithin10Percent: flat ? flat.maxAboveFirstPercent <= 10 : null,
    medianP50FirstTenMinutesAfterWarmup: window(after.slice(0, 10)),
    medianP50LastTenMinutes: window(after.slice(-10)),
  };
}

function save(final) {
  return writeResult('soak', {
    date: new Date().toISOString(),
    command: `npm run build && node bench/soak.mjs --minutes ${MINUTES} --warmup ${WARMUP_MIN} --rate ${RATE} --run-every ${RUN_EVERY_MS / 1000}`,
    finished: final,
    machine: info,
    settings: { minutes: MINUTES, warmupMinutes: WARMUP_MIN, requestsPerSec: RATE, runEverySec: RUN_EVERY_MS / 1000, mix: Object.fromEntries(MIX), sampleSec: SAMPLE_MS / 1000 },
    loadAverageNow: machine().loadAverage1m5m15m,
    totals,
    errorSamples,
    summary: summary(),
    samples,
  });
}

sample(); // minute 0, before any load
const sampler = setInterval(() => {
  sample();
  save(false);
}, SAMPLE_MS);
await Promise.all([pacer, runner]);
while (inFlight > 0) await sleep(50);
clearInterval(sampler);
// Let the last runs end, then count them.
await sleep(5000);
sample();
const runs = [];
for (let cursor = null; ; ) {
  const page = await call('GET', `/api/companies/${company.id}/heartbeat-runs?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
  runs.push(...page.items);
  if (!page.nextCursor) break;
  cursor = page.nextCursor;
}
for (const r of runs) totals.runsByStatus[r.status] = (totals.runsByStatus[r.status] ?? 0) + 1;
await stopServer(server);
const file = save(true);
rmSync(home, { recursive: true, force: true });
const sm = summary();
console.log(`\n${info.cpuModel}, ${info.nproc} cores, Node ${info.node}; ${MINUTES} min at ${RATE} req/s + a run every ${RUN_EVERY_MS / 1000} s`);
console.log(`${totals.ops} ops, ${totals.errors} errors, runs ${JSON.stringify(totals.runsByStatus)}`);
console.log(`RSS after warm-up: ${JSON.stringify(sm.rssAfterWarmup)}; flat within 10%: ${sm.flatWithin10Percent}`);
console.log(`written to ${file}`);
