// Issue routes at scale: list over 10,000 issues, get one, create, comment, and checkout+release
// cycles with 8 concurrent agent clients. Usage: node bench/issues.mjs [--duration 10]
// The 10,000 issues are seeded straight into the server's SQLite file (one transaction) because
// creating them over HTTP would only measure the seeding; everything measured goes over HTTP.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, issues: { type: 'string', default: '10000' } } });
const duration = Number(values.duration);
const ISSUES = Number(values.issues);
const CLIENTS = 8;
const TOKEN = 'hcb_bench-board-token';

requireBuild();
const info = machine();
const home = tempHome();
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const board = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function call(method, url, body, headers = board) {
  const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const company = await call('POST', '/api/companies', { name: 'Bench Issues' });
const agents = [];
for (let i = 0; i < CLIENTS; i++) {
  const agent = await call('POST', `/api/companies/${company.id}/agents`, { name: `Worker ${i}`, adapterType: 'process', adapterConfig: { command: 'echo' } });
  const { key } = await call('POST', `/api/agents/${agent.id}/keys`, {});
  agents.push({ ...agent, key });
}

// Seed ISSUES issues with spread priorities, statuses and activity times.
const db = new Database(path.join(home, 'service.db'));
db.pragma('busy_timeout = 5000');
const priorities = ['critical', 'high', 'medium', 'low'];
const statuses = ['backlog', 'todo', 'todo', 'in_review', 'blocked', 'done'];
const insert = db.prepare(`INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, priority_rank,
  created_by_type, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, 'board', ?, ?, ?)`);
const seeded = [];
db.transaction(() => {
  const base = Date.UTC(2026, 0, 1);
  for (let n = 1; n <= ISSUES; n++) {
    const id = randomUUID();
    const p = n % 4;
    const at = new Date(base + n * 60_000).toISOString();
    insert.run(id, company.id, n, `BI-${n}`, `Seeded issue ${n}`, statuses[n % statuses.length], priorities[p], p, at, at, at);
    seeded.push(id);
  }
  db.prepare('UPDATE companies SET issue_counter = ?, issue_prefix = ? WHERE id = ?').run(ISSUES, 'BI', company.id);
})();
db.close();

async function cannon(name, { method = 'GET', path: urlPath, body, setupRequest }) {
  const request = { method, path: urlPath, ...(body ? { body } : {}), ...(setupRequest ? { setupRequest } : {}) };
  const r = await autocannon({ url: server.url, connections: 10, duration, warmup: { connections: 10, duration: 2 }, headers: board, requests: [request] });
  return { name, requestsPerSec: r.requests.average, latencyMs: { p50: r.latency.p50, p99: r.latency.p99 }, non2xx: r.non2xx, errors: r.errors };
}

const results = [];
results.push(await cannon('GET /api/companies/{id}/issues (first page of 50, 10,000 issues)', { path: `/api/companies/${company.id}/issues` }));
results.push(await cannon('GET /api/companies/{id}/issues?status=todo (filtered)', { path: `/api/companies/${company.id}/issues?status=todo` }));
results.push(await cannon('GET /api/issues/{identifier}', { path: '/api/issues/BI-5000' }));
let counter = 0;
results.push(
  await cannon('POST /api/companies/{id}/issues', {
    method: 'POST',
    path: `/api/companies/${company.id}/issues`,
    setupRequest: (req) => ({ ...req, body: JSON.stringify({ title: `Bench issue ${++counter}`, priority: 'high' }) }),
  }),
);
results.push(
  await cannon('POST /api/issues/{id}/comments', {
    method: 'POST',
    path: `/api/issues/${seeded[42]}/comments`,
    body: JSON.stringify({ body: 'A benchmark comment with a little **markdown** and no mentions.' }),
  }),
);

// Checkout + release cycles: 8 agents, each on its own pool of todo issues (no contention).
const todo = (await call('GET', `/api/companies/${company.id}/issues?status=todo&limit=200`)).items.map((i) => i.id);
const cycleLatencies = [];
let cycles = 0;
let refused = 0;
const deadline = performance.now() + duration * 1000;
await Promise.all(
  agents.map(async (agent, c) => {
    const headers = { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json' };
    const mine = todo.filter((_, i) => i % CLIENTS === c);
    for (let k = 0; performance.now() < deadline; k++) {
      const issue = mine[k % mine.length];
      const started = performance.now();
      const a = await fetch(`${server.url}/api/issues/${issue}/checkout`, { method: 'POST', headers: { ...headers, 'x-service-run-id': `bench-${c}-${k}` }, body: JSON.stringify({ expectedStatuses: ['todo'] }) });
      await a.arrayBuffer();
      const b = await fetch(`${server.url}/api/issues/${issue}/release`, { method: 'POST', headers });
      await b.arrayBuffer();
      if (a.status !== 200 || b.status !== 200) {
        if (refused++ === 0) console.error('first refused cycle:', a.status, b.status);
      }
      cycleLatencies.push(performance.now() - started);
      cycles++;
    }
  }),
);
cycleLatencies.sort((x, y) => x - y);
const pct = (p) => cycleLatencies[Math.min(cycleLatencies.length - 1, Math.floor((p / 100) * cycleLatencies.length))];
const checkoutCycles = { clients: CLIENTS, cyclesPerSec: cycles / duration, p50Ms: pct(50), p99Ms: pct(99), refused };

await stopServer(server);
rmSync(home, { recursive: true, force: true });
const file = writeResult('issues', { machine: info, durationSec: duration, issues: ISSUES, results, checkoutCycles });

const fmt = (n, d = 0) => Number(n).toFixed(d);
console.log('| route | req/s | p50 ms | p99 ms | non-2xx |\n|---|---:|---:|---:|---:|');
for (const r of results) console.log(`| ${r.name} | ${fmt(r.requestsPerSec)} | ${fmt(r.latencyMs.p50, 1)} | ${fmt(r.latencyMs.p99, 1)} | ${r.non2xx} |`);
console.log(`\ncheckout+release cycles, ${CLIENTS} clients: ${fmt(checkoutCycles.cyclesPerSec)}/s, p50 ${fmt(checkoutCycles.p50Ms, 1)} ms, p99 ${fmt(checkoutCycles.p99Ms, 1)} ms, refused ${refused}`);
console.log(`results: ${file}`);
