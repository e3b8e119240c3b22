// Issue 17: the spend routes must not grow with history. Seeds N cost events (spread over the last
// 12 UTC months, 20 agents, 5 projects) straight into the database file of a stopped server, then
// restarts it (which builds the spend rollups from the events: timed) and measures every spend
// route with autocannon. Both sizes (10,000 and 1,000,000 events) are served at once and measured
// in alternation, route by route, best of two rounds each: on a machine shared with other work the
// load moves between measurements, and alternation spreads it over both. The ratio should be ~1.
// Usage: node bench/spend.mjs [--duration 3] [--sizes 10000,1000000]
import { appendFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { machine, requireBuild, ROOT, startServer, stopServer, tempHome } from './lib.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '3' }, sizes: { type: 'string', default: '10000,1000000' } } });
const duration = Number(values.duration);
const sizes = values.sizes.split(',').map(Number);
const TOKEN = 'hcb_bench-board-token';
const board = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
requireBuild();
const info = machine();

async function prepare(events) {
  const home = tempHome();
  let server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
  const call = async (method, url, body) => {
    const res = await fetch(server.url + url, { method, headers: board, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const company = await call('POST', '/api/companies', { name: 'Bench Spend' });
  const agents = [];
  for (let i = 0; i < 20; i++) agents.push(await call('POST', `/api/companies/${company.id}/agents`, { name: `Spender ${i}`, adapterType: 'process', adapterConfig: { command: 'echo' } }));
  const projects = [];
  for (let i = 0; i < 5; i++) projects.push(await call('POST', `/api/companies/${company.id}/projects`, { name: `Project ${i}` }));
  await stopServer(server);

  const db = new Database(path.join(home, 'service.db'));
  const seedStart = performance.now();
  // Generated inside SQLite (one INSERT ... SELECT): a JavaScript loop spent minutes on 1M rows.
  db.exec('CREATE TEMP TABLE bench_agents (k INTEGER PRIMARY KEY, id TEXT); CREATE TEMP TABLE bench_projects (k INTEGER PRIMARY KEY, id TEXT)');
  agents.forEach((a, k) => db.prepare('INSERT INTO bench_agents VALUES (?, ?)').run(k, a.id));
  projects.forEach((p, k) => db.prepare('INSERT INTO bench_projects VALUES (?, ?)').run(k, p.id));
  const nowMs = Date.now();
  const yearMs = 365 * 24 * 3600 * 1000;
  db.prepare(`WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n + 1 < :events),
      timed AS (SELECT n, strftime('%Y-%m-%dT%H:%M:%fZ', (:now - ((n * 7919) % :events) * (:year * 1.0 / :events)) / 1000.0, 'unixepoch') AS at FROM seq)
    INSERT INTO cost_events (id, company_id, agent_id, provider, model, input_tokens, output_tokens, cost_micro_cents, project_id, occurred_at, created_at)
    SELECT printf('00000000-0000-4000-8000-%012d', n), :company, (SELECT id FROM bench_agents WHERE k = n % 20), 'anthropic', 'bench', 1000, 200,
      1000000 + n % 1000, CASE WHEN n % 6 = 5 THEN NULL ELSE (SELECT id FROM bench_projects WHERE k = n % 5) END, at, at FROM timed`).run({ events, now: nowMs, year: yearMs, company: company.id });
  // The rollups are derived: emptied, so the start below builds them from the events.
  db.prepare('DELETE FROM spend_rollups').run();
  db.close();
  const seedSec = (performance.now() - seedStart) / 1000;

  server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
  console.log(`${events} events: seeded in ${seedSec.toFixed(1)} s; start with the rollup build ${server.startupMs.toFixed(0)} ms`);
  const routes = [
    ['costs/summary', `/api/companies/${company.id}/costs/summary`],
    ['costs/by-agent', `/api/companies/${company.id}/costs/by-agent`],
    ['costs/by-project', `/api/companies/${company.id}/costs/by-project`],
    ['agents list (spentMonthlyCents)', `/api/companies/${company.id}/agents`],
    ['one agent', `/api/agents/${agents[3].id}`],
  ];
  return { events, home, server, routes, seedSec, startWithRollupBuildMs: server.startupMs, results: [] };
}

async function cannon(server, url) {
  const r = await autocannon({ url: server.url, connections: 10, duration, warmup: { connections: 10, duration: 1 }, headers: board, requests: [{ method: 'GET', path: url }] });
  if (r.non2xx) throw new Error(`${url}: ${r.non2xx} non-2xx`);
  return { perSec: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99 };
}

const sized = [];
for (const n of sizes) sized.push(await prepare(n));
for (let i = 0; i < sized[0].routes.length; i++) {
  for (const run of sized) run.results[i] = { name: run.routes[i][0], perSec: 0, p50Ms: Infinity, p99Ms: Infinity };
  for (let round = 0; round < 2; round++) {
    for (const run of sized) {
      const r = await cannon(run.server, run.routes[i][1]);
      const best = run.results[i];
      // Best of the rounds: the least disturbed measurement of each.
      if (r.perSec > best.perSec) Object.assign(best, r);
      console.log(`${run.events} events, ${run.routes[i][0]}: ${r.perSec.toFixed(0)}/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms`);
    }
  }
}
const runs = [];
for (const run of sized) {
  await stopServer(run.server);
  rmSync(run.home, { recursive: true, force: true });
  runs.push({ events: run.events, seedSec: run.seedSec, startWithRollupBuildMs: run.startWithRollupBuildMs, results: run.results });
}
const record = { at: new Date().toISOString(), bench: 'spend', machine: info, loadAfter: machine().loadAverage1m5m15m, durationSec: duration, runs };
const file = path.join(ROOT, 'bench', 'results', 'spend.jsonl');
appendFileSync(file, JSON.stringify(record) + '\n');

const [small, big] = [runs[0], runs[runs.length - 1]];
console.log(`\n${info.cpuModel}, ${info.nproc} cores, node ${info.node}, load ${info.loadAverage1m5m15m.join(' ')}`);
console.log(`| route | ${small.events} req/s | p99 ms | ${big.events} req/s | p99 ms | throughput ${big.events}/${small.events} |\n|---|---:|---:|---:|---:|---:|`);
for (let i = 0; i < small.results.length; i++) {
  const a = small.results[i];
  const b = big.results[i];
  console.log(`| ${a.name} | ${a.perSec.toFixed(0)} | ${a.p99Ms} | ${b.perSec.toFixed(0)} | ${b.p99Ms} | ${((b.perSec / a.perSec) * 100).toFixed(0)}% |`);
}
console.log(`appended to ${file}`);
