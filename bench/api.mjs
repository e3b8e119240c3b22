// HTTP throughput and latency of the headless core, measured with autocannon against the built
// server (`npm run build` first). Usage: node bench/api.mjs [--duration 10] [--connections 10]
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '10' },
  },
});
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const TOKEN = 'hcb_bench-board-token';
const AGENTS = 50;

requireBuild();
const info = machine(); // before any load of our own
const home = tempHome();
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function post(path, body) {
  const res = await fetch(server.url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const agentBody = (name) => ({ name, role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } });

// Seed: one company with 50 agents (the first is the CEO, the others report to it).
const company = await post('/api/companies', { name: 'Bench Co' });
const ceo = await post(`/api/companies/${company.id}/agents`, { ...agentBody('Agent 1'), role: 'ceo' });
const agents = [ceo];
for (let i = 2; i <= AGENTS; i++) agents.push(await post(`/api/companies/${company.id}/agents`, { ...agentBody(`Agent ${i}`), reportsTo: ceo.id }));
// Hires go to their own company so the listed company keeps exactly 50 agents.
const hiring = await post('/api/companies', { name: 'Bench Hiring Co' });

let hireCounter = 0;
const cases = [
  { name: 'GET /api/agents/{id}', method: 'GET', path: `/api/agents/${agents[AGENTS - 1].id}` },
  { name: 'GET /api/companies/{id}/agents (50 agents)', method: 'GET', path: `/api/companies/${company.id}/agents` },
  {
    name: 'POST /api/companies/{id}/agents',
    method: 'POST',
    path: `/api/companies/${hiring.id}/agents`,
    // A fresh name per request: agent names are unique within a company.
    setupRequest: (req) => ({ ...req, body: JSON.stringify(agentBody(`Hire ${++hireCounter}`)) }),
  },
];

const results = [];
for (const c of cases) {
  process.stderr.write(`running ${c.name} (${warmup} s warmup + ${duration} s, ${connections} connections)\n`);
  const r = await autocannon({
    url: server.url,
    connections,
    duration,
    warmup: { connections, duration: warmup },
    headers: { authorization: `Bearer ${TOKEN}` },
    requests: [
      c.method === 'POST'
        ? { method: c.method, path: c.path, headers: { 'content-type': 'application/json' }, setupRequest: c.setupRequest }
        : { method: c.method, path: c.path },
    ],
  });
  results.push({
    name: c.name,
    requestsPerSec: r.requests.average,
    latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r.latency.mean },
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  });
}
await stopServer(server);
rmSync(home, { recursive: true, force: true });

const file = writeResult('api', {
  date: new Date().toISOString(),
  command: 'npm run build && node bench/api.mjs',
  settings: { connections, durationSec: duration, warmupSec: warmup, seededAgents: AGENTS },
  machine: info,
  results,
  hiresCreated: hireCounter,
});

const fmt = (n, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
console.log(`\n${info.cpuModel}, ${info.nproc} cores, ${info.memoryGiB} GiB, Node ${info.node}; ${connections} connections, ${duration} s each\n`);
console.log('| endpoint | req/s | p50 ms | p99 ms | non-2xx |');
console.log('|---|---:|---:|---:|---:|');
for (const r of results) {
  console.log(`| ${r.name} | ${fmt(r.requestsPerSec)} | ${fmt(r.latencyMs.p50, 1)} | ${fmt(r.latencyMs.p99, 1)} | ${r.non2xx} |`);
}
console.log(`\nwritten to ${file}`);
