// Issue 17: the hot path as a ratio to what this machine can do, measured in the same run.
// Ceilings: a bare Fastify (same version) + better-sqlite3 server on the same database file that
// reads one issue row by id with a prepared statement, and one that does one autocommit insert
// (bench/ceiling-server.mjs); and a plain SQLite claim/release loop. Every Headcount scenario is
// printed as a ratio to its ceiling; each run is appended to bench/results/ceiling.jsonl with the
// machine's description.
// Usage: node bench/ceiling.mjs [--rounds 3] [--duration 2] [--label text] [--only scenario-substring]
//        [--history N]  (N activity entries and N comments on the seeded issues first: a company with a past)
//        [--profile dir]  (runs the server under --cpu-prof, profile written to dir on exit)
// Rounds: every scenario is measured once per round, between two measurements of its ceiling, and
// its ratio is taken against their mean; the median of the rounds is reported. On a shared virtual
// machine the speed drifts by tens of percent within a minute, so a ceiling measured once, a
// minute before a scenario, says little about it. The table's ceiling columns are the medians of
// the pairs' means each scenario was compared with.
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { machine, processCpuMicros, requireBuild, ROOT, startServer, stopServer, tempHome } from './lib.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    issues: { type: 'string', default: '10000' },
    history: { type: 'string', default: '0' },
    label: { type: 'string', default: '' },
    only: { type: 'string' },
    profile: { type: 'string' },
  },
});
let duration = Number(values.duration);
const ROUNDS = Number(values.rounds);
const ISSUES = Number(values.issues);
const HISTORY = Number(values.history);
const CLIENTS = 8;
// Four agents with a running heartbeat each (the default cap of concurrent runs), two clients each.
const AGENTS = 4;
const TOKEN = 'hcb_bench-board-token';
// The scenarios' names, as recorded in results/ceiling.jsonl; --only matches any part of one.
const S = {
  GET_BOARD: 'GET /api/issues/{id} board token',
  GET_AGENT: 'GET /api/issues/{id} agent key',
  LIST: 'GET issues list (50, status=todo, assignee)',
  PATCH: 'PATCH /api/issues/{id}',
  COMMENT: 'POST /api/issues/{id}/comments',
  CREATE: 'POST /api/companies/{id}/issues',
  COST: 'POST /api/companies/{id}/cost-events (agent key)',
  CHECKOUT: 'checkout + release (agent key + run header, 8 clients)',
  LIST_BARE: 'GET issues list, against the bare 50-row page',
  CHECKOUT_RULES: 'checkout + release, against the rules on a bare server',
  RULES_FLOOR: 'the rules on a bare server (checkout + release), against claim-release',
};
const wanted = (name) => !values.only || name.toLowerCase().includes(values.only.toLowerCase());

requireBuild();
const info = machine();
const home = tempHome();
const profileArgs = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : [];
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN }, profileArgs);
const board = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function call(method, url, body, headers = board) {
  const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

const company = await call('POST', '/api/companies', { name: 'Bench Ceiling' });
const agents = [];
for (let i = 0; i < AGENTS; i++) {
  // Each agent's heartbeat is a process that waits, so its run stays active for the run header.
  const agent = await call('POST', `/api/companies/${company.id}/agents`, {
    name: `Worker ${i}`,
    adapterType: 'process',
    adapterConfig: { command: 'sleep', args: ['600'], timeoutSec: 900 },
  });
  const { key } = await call('POST', `/api/agents/${agent.id}/keys`, {});
  agents.push({ ...agent, key });
}

// Seed ISSUES issues straight into the file (seeding over HTTP would only measure the seeding).
const dbFile = path.join(home, 'service.db');
const db = new Database(dbFile);
db.pragma('busy_timeout = 5000');
const priorities = ['critical', 'high', 'medium', 'low'];
const statuses = ['backlog', 'todo', 'todo', 'in_review', 'blocked', 'done'];
const insert = db.prepare(`INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, priority_rank,
  assignee_agent_id, created_by_type, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?, 'board', ?, ?, ?)`);
const seeded = [];
db.transaction(() => {
  const base = Date.UTC(2026, 0, 1);
  for (let n = 1; n <= ISSUES; n++) {
    const id = randomUUID();
    const p = n % 4;
    const at = new Date(base + n * 60_000).toISOString();
    insert.run(id, company.id, n, `BC-${n}`, `Seeded issue ${n}`, statuses[n % statuses.length], priorities[p], p, agents[n % AGENTS].id, at, at, at);
    seeded.push(id);
  }
  db.prepare('UPDATE companies SET issue_counter = ?, issue_prefix = ?, budget_monthly_cents = ? WHERE id = ?').run(ISSUES, 'BC', 1e9, company.id);
  // Budgets set, so every cost event runs the budget rules in full.
  db.prepare('UPDATE agents SET budget_monthly_cents = ? WHERE company_id = ?').run(1e9, company.id);
})();

// A company with a past: HISTORY activity entries and as many comments, spread over the issues.
if (HISTORY > 0) {
  const { v7: uuidv7 } = await import('uuid');
  const entry = db.prepare(`INSERT INTO activity (id, company_id, actor_type, actor_id, action, entity_type, entity_id, summary, details, created_at) VALUES (?, ?, 'agent', ?, 'issue.updated', 'issue', ?, ?, '{"fields":["title"]}', ?)`);
  const comment = db.prepare(`INSERT INTO issue_comments (id, company_id, issue_id, author_type, author_agent_id, body, created_at) VALUES (?, ?, ?, 'agent', ?, ?, ?)`);
  const base = Date.UTC(2026, 0, 1);
  for (let done = 0; done < HISTORY; ) {
    db.transaction(() => {
      for (let i = 0; i < 50_000 && done < HISTORY; i++, done++) {
        const at = new Date(base + done * 1000).toISOString();
        const issue = seeded[(done * 7919) % ISSUES];
        entry.run(uuidv7(), company.id, agents[done % AGENTS].id, issue, `BC-${done % ISSUES} updated`, at);
        comment.run(uuidv7(), company.id, issue, agents[done % AGENTS].id, `Comment ${done} on the work so far.`, at);
      }
    })();
  }
  console.log(`history: ${HISTORY} activity entries and comments`);
  // The seeding held the event loop for longer than the server keeps an idle socket: let the client
  // see those sockets close before it sends on one.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

// Heartbeat runs that stay active: checkout with an agent key names one in X-Service-Run-Id.
for (const agent of agents) await call('POST', `/api/agents/${agent.id}/heartbeat/invoke`, {});
for (let tries = 0; ; tries++) {
  const rows = db.prepare("SELECT agent_id, id FROM heartbeat_runs WHERE company_id = ? AND status = 'running'").all(company.id);
  for (const r of rows) agents.find((a) => a.id === r.agent_id).runId = r.id;
  if (agents.every((a) => a.runId)) break;
  if (tries > 100) throw new Error(`heartbeat runs did not start: ${JSON.stringify(db.prepare('SELECT status, error_code, error_message FROM heartbeat_runs').all())}`);
  await new Promise((r) => setTimeout(r, 100));
}

// The seeded issues' texts wait for the server's search indexer (search/indexer.ts), which the
// commits above woke: let it finish before measuring, as seeding is not what is measured.
for (let tries = 0; db.prepare('SELECT count(*) AS n FROM search_docs WHERE pending = 1').get().n > 0; tries++) {
  if (tries > 600) throw new Error('the search index did not catch up with the seeded issues');
  await new Promise((r) => setTimeout(r, 100));
}

const ceiling = spawn(process.execPath, [path.join(ROOT, 'bench', 'ceiling-server.mjs'), dbFile], { stdio: ['ignore', 'pipe', 'inherit'] });
process.once('exit', () => ceiling.kill('SIGKILL'));
const ceilingUrl = await new Promise((resolve, reject) => {
  let out = '';
  ceiling.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    const m = /listening on (\S+)\n/.exec(out);
    if (m) resolve(m[1]);
  });
  ceiling.once('exit', (code) => reject(new Error(`ceiling server exited ${code}`)));
});

async function cannon({ url = server.url, method = 'GET', path: urlPath, body, headers = board, setupRequest }) {
  const request = { method, path: urlPath, ...(body ? { body } : {}), ...(setupRequest ? { setupRequest } : {}) };
  // The warm-up is its own run so that the CPU counted below is the measured run's alone.
  await autocannon({ url, connections: 10, duration: 1, headers, requests: [request] });
  const pid = url === ceilingUrl ? ceiling.pid : server.child.pid;
  const cpuBefore = processCpuMicros(pid);
  const r = await autocannon({ url, connections: 10, duration, headers, requests: [request] });
  const cpu = processCpuMicros(pid) - cpuBefore;
  const ok = r['2xx'];
  if (r.non2xx) console.error(`${method} ${urlPath}: ${r.non2xx} non-2xx of ${ok + r.non2xx}`);
  return { perSec: r.requests.average, p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors, cpuUsPerOp: cpu / r.requests.total };
}

// The raw claim/release loop: the two conditional UPDATEs of a checkout and release, autocommit.
function claimReleaseLoop(ids, agentId) {
  const claim = db.prepare("UPDATE issues SET status = 'in_progress', checkout_agent_id = ?, checkout_run_id = ?, checked_out_at = ? WHERE id = ? AND status = 'todo' AND checkout_agent_id IS NULL");
  const release = db.prepare("UPDATE issues SET status = 'todo', checkout_agent_id = NULL, checkout_run_id = NULL, checked_out_at = NULL WHERE id = ? AND checkout_agent_id = ?");
  let cycles = 0;
  const cpuBefore = process.cpuUsage();
  const end = performance.now() + duration * 1000;
  while (performance.now() < end) {
    const id = ids[cycles % ids.length];
    if (claim.run(agentId, 'ceiling-run', new Date().toISOString(), id).changes !== 1) throw new Error('ceiling claim lost');
    release.run(id, agentId);
    cycles++;
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { perSec: cycles / duration, cpuUsPerOp: (cpu.user + cpu.system) / cycles };
}

// Checkout + release over HTTP: CLIENTS connections, each an agent (agent key + run header) cycling
// through issues of its own. Driven by autocannon's request sequence rather than fetch(): on two
// cores, undici's per-request cost in this process took the CPU the server needed, and the server
// profile was half idle. A cycle is one checkout and its release; the latencies are per request.
// `url` and `prefix`: the same cycles against the rules on the bare server (ceiling-server.mjs).
async function checkoutCycles(todo, { url = server.url, prefix = '/api', pid = () => server.child.pid } = {}) {
  let connection = 0;
  const headersOf = (a) => ({ authorization: `Bearer ${a.key}`, 'content-type': 'application/json', 'x-service-run-id': a.runId });
  const run = (seconds) =>
    autocannon({
      url,
      connections: CLIENTS,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (req, context) => {
            if (context.c === undefined) {
              context.c = connection++ % CLIENTS;
              context.mine = todo.filter((_, i) => i % CLIENTS === context.c);
              context.k = 0;
            }
            context.issue = context.mine[context.k++ % context.mine.length];
            return { ...req, path: `${prefix}/issues/${context.issue}/checkout`, headers: headersOf(agents[context.c % AGENTS]), body: JSON.stringify({ expectedStatuses: ['todo'] }) };
          },
        },
        {
          method: 'POST',
          setupRequest: (req, context) => ({ ...req, path: `${prefix}/issues/${context.issue}/release`, headers: headersOf(agents[context.c % AGENTS]), body: '{}' }),
        },
      ],
    });
  // A run stopped between a checkout and its release leaves that issue checked out: put the
  // issues back before the next run, so every checkout measured is one that can win.
  const reset = () => db.prepare(`UPDATE issues SET status = 'todo', checkout_agent_id = NULL, checkout_run_id = NULL, checked_out_at = NULL WHERE id IN (${todo.map(() => '?').join(',')})`).run(...todo);
  await run(1);
  reset();
  const cpuBefore = processCpuMicros(pid());
  const r = await run(duration);
  const cpu = processCpuMicros(pid()) - cpuBefore;
  reset();
  if (r.non2xx) console.error(`checkout cycles (${prefix}): ${r.non2xx} non-2xx of ${r['2xx'] + r.non2xx}`);
  return { perSec: r.requests.average / 2, p50Ms: r.latency.p50, p99Ms: r.latency.p99, refused: r.non2xx, cpuUsPerOp: (2 * cpu) / r.requests.total };
}

const agentHeaders = (a) => ({ authorization: `Bearer ${a.key}`, 'content-type': 'application/json' });

const target = seeded[5000];
const todoIds = db.prepare("SELECT id FROM issues WHERE company_id = ? AND status = 'todo' ORDER BY number LIMIT 400").all(company.id).map((r) => r.id);
const listQuery = `status=todo&assigneeAgentId=${agents[1].id}&limit=50`;
// Both sides must answer the full page, or the ratio compares unlike work.
if (wanted(S.LIST)) {
  const ours = await call('GET', `/api/companies/${company.id}/issues?${listQuery}`);
  const bare = await (await fetch(`${ceilingUrl}/list?companyId=${company.id}&${listQuery}`)).json();
  if (ours.items.length !== 50 || bare.items.length !== 50) throw new Error(`list page sizes differ: ${ours.items.length} and ${bare.items.length}`);
}
let n = 0;
// The raw loop runs on issues nobody else touches (statuses restored after it).
const spare = db.prepare("SELECT id FROM issues WHERE company_id = ? AND status = 'todo' ORDER BY number DESC LIMIT 100").all(company.id).map((r) => r.id);

/** How each ceiling is measured. */
const ceilingRuns = {
  'get-by-id': () => cannon({ url: ceilingUrl, path: `/rows/${target}`, headers: {} }),
  'list-page': () => cannon({ url: ceilingUrl, path: `/list?companyId=${company.id}&${listQuery}`, headers: {} }),
  // Emptied first: the ceiling's table would otherwise grow by some 30,000 rows a measurement, and
  // its random keys made each insert slower as it grew (a tenth to a third by the last round).
  insert: () => {
    db.exec('DELETE FROM bench_ceiling_rows');
    return cannon({ url: ceilingUrl, method: 'POST', path: '/rows', headers: { 'content-type': 'application/json' }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ title: `row ${++n}` }) }) });
  },
  'claim-release': () => claimReleaseLoop(spare, agents[0].id),
  // The same cycles, clients and issues, against the rules alone on the bare server.
  'checkout-rules': () => checkoutCycles(todoIds, { url: ceilingUrl, prefix: '/rules', pid: () => ceiling.pid }),
};

// Each scenario is measured between two measurements of its ceiling, and its ratio is taken against
// their mean. This machine's speed drifts by a tenth to a quarter from one second to the next (the
// raw claim/release loop alone, run for 20 s: 7,900-11,300 cycles a second), so a ceiling measured
// once per round, a scenario or four before, moved a ratio as much as the code did. A ceiling
// measured after one scenario serves as the one before the next.
let results = [];
let ceilings = {};
let latest = {};
async function measureCeiling(name) {
  const m = await ceilingRuns[name]();
  latest[name] = m;
  (ceilings[name] ??= []).push(m);
  const cpu = Number.isFinite(m.cpuUsPerOp) ? `, ${m.cpuUsPerOp.toFixed(0)} µs CPU each` : '';
  console.log(`ceiling ${name}: ${m.perSec.toFixed(0)}/s${m.p99Ms !== undefined ? `, p99 ${m.p99Ms} ms` : ''}${cpu}`);
  return m;
}
const meanOf = (a, b) => ({ perSec: (a.perSec + b.perSec) / 2, cpuUsPerOp: (a.cpuUsPerOp + b.cpuUsPerOp) / 2 });
function report(name, ceilingName, r, c) {
  const row = { name, ceiling: ceilingName, ...r, ceilingPerSec: c.perSec, ceilingCpuUsPerOp: c.cpuUsPerOp, ratio: r.perSec / c.perSec, cpuRatio: c.cpuUsPerOp / r.cpuUsPerOp };
  results.push(row);
  const cpu = Number.isFinite(r.cpuUsPerOp) ? `, ${r.cpuUsPerOp.toFixed(0)} µs CPU each` : '';
  console.log(`${name}: ${r.perSec.toFixed(0)}/s${r.p99Ms !== undefined ? `, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms` : ''}${cpu}, ${(row.ratio * 100).toFixed(1)}% of ${ceilingName} (CPU: ${(row.cpuRatio * 100).toFixed(1)}%)`);
}
/**
 * One scenario between two measurements of its ceiling. `bare`: a second ceiling the same result is
 * also compared with (the list against the bare page), measured inside the first pair; with
 * `floor`, that second ceiling is itself reported against the first (the rules on a bare server
 * against the raw loop: the most any server keeping the rules reaches here).
 */
async function scenario(name, ceilingName, fn, bare) {
  if (!wanted(name) && !(bare && wanted(bare.name))) return;
  const before = latest[ceilingName] ?? (await measureCeiling(ceilingName));
  const bareBefore = bare ? await measureCeiling(bare.ceiling) : null;
  const r = await fn();
  const bareAfter = bare ? await measureCeiling(bare.ceiling) : null;
  const after = await measureCeiling(ceilingName);
  report(name, ceilingName, r, meanOf(before, after));
  if (bare) report(bare.name, bare.ceiling, r, meanOf(bareBefore, bareAfter));
  if (bare?.floor) report(bare.floor, ceilingName, { ...meanOf(bareBefore, bareAfter), p50Ms: bareAfter.p50Ms, p99Ms: bareAfter.p99Ms }, meanOf(before, after));
}

/** One round: every wanted scenario once, each between two measurements of its ceiling. */
async function measureRound() {
  await scenario(S.GET_BOARD, 'get-by-id', () => cannon({ path: `/api/issues/${target}` }));
  await scenario(S.GET_AGENT, 'get-by-id', () => cannon({ path: `/api/issues/${target}`, headers: agentHeaders(agents[0]) }));
  // The list against the same 50 rows served bare: the share of a list that is Headcount's own work.
  await scenario(S.LIST, 'get-by-id', () => cannon({ path: `/api/companies/${company.id}/issues?${listQuery}` }), { name: S.LIST_BARE, ceiling: 'list-page' });
  await scenario(S.PATCH, 'insert', () =>
    cannon({ method: 'PATCH', path: `/api/issues/${seeded[7]}`, setupRequest: (req) => ({ ...req, body: JSON.stringify({ title: `Renamed ${++n}` }) }) }),
  );
  await scenario(S.COMMENT, 'insert', () =>
    cannon({ method: 'POST', path: `/api/issues/${seeded[42]}/comments`, body: JSON.stringify({ body: 'A benchmark comment with a little **markdown** and no mentions.' }) }),
  );
  await scenario(S.CREATE, 'insert', () =>
    cannon({ method: 'POST', path: `/api/companies/${company.id}/issues`, setupRequest: (req) => ({ ...req, body: JSON.stringify({ title: `Bench issue ${++n}`, priority: 'high' }) }) }),
  );
  await scenario(S.COST, 'insert', () =>
    cannon({
      method: 'POST',
      path: `/api/companies/${company.id}/cost-events`,
      headers: agentHeaders(agents[2]),
      body: JSON.stringify({ agentId: agents[2].id, provider: 'anthropic', model: 'bench', inputTokens: 1000, outputTokens: 200, costCents: 1.25 }),
    }),
  );

  await scenario(S.CHECKOUT, 'claim-release', () => checkoutCycles(todoIds), { name: S.CHECKOUT_RULES, ceiling: 'checkout-rules', floor: S.RULES_FLOOR });
}

// A first round of 1 s each is not recorded: the server's first seconds after seeding measured a
// third below the rounds after it (JIT, the first checkpoints and index batches).
const measured = duration;
duration = 1;
console.log('warm-up round (not recorded)');
await measureRound();
latest = {};
duration = measured;

const rounds = [];
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round} of ${ROUNDS}`);
  results = [];
  ceilings = {};
  latest = {};
  await measureRound();
  rounds.push({ ceilings, results });
}

ceiling.kill('SIGTERM');
db.close();
await stopServer(server);
rmSync(home, { recursive: true, force: true });

// Each scenario: the median over the rounds of its rate, latencies and ratio to its round's ceiling.
const median = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  return v.length === 0 ? null : v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const summary = rounds[0].results.map((first) => {
  const all = rounds.map((r) => r.results.find((x) => x.name === first.name));
  return {
    name: first.name,
    ceiling: first.ceiling,
    perSec: median(all.map((x) => x.perSec)),
    p50Ms: median(all.map((x) => x.p50Ms)),
    p99Ms: median(all.map((x) => x.p99Ms)),
    ceilingPerSec: median(all.map((x) => x.ceilingPerSec)),
    ceilingCpuUsPerOp: median(all.map((x) => x.ceilingCpuUsPerOp)),
    ratio: median(all.map((x) => x.ratio)),
    ratios: all.map((x) => x.ratio),
    cpuUsPerOp: median(all.map((x) => x.cpuUsPerOp)),
    cpuRatio: median(all.map((x) => x.cpuRatio)),
    cpuRatios: all.map((x) => x.cpuRatio),
  };
});
// Every measurement of each ceiling in the run (several per round since each scenario has its pair).
const ceilingSummary = Object.fromEntries(
  Object.keys(rounds[0].ceilings).map((k) => {
    const all = rounds.flatMap((r) => r.ceilings[k] ?? []);
    return [k, { measurements: all.length, perSec: median(all.map((m) => m.perSec)), cpuUsPerOp: median(all.map((m) => m.cpuUsPerOp)) }];
  }),
);

const record = { at: new Date().toISOString(), label: values.label, machine: info, loadAfter: machine().loadAverage1m5m15m, durationSec: duration, rounds: ROUNDS, issues: ISSUES, history: HISTORY, ceilings: ceilingSummary, results: summary, perRound: rounds };
mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
const file = path.join(ROOT, 'bench', 'results', 'ceiling.jsonl');
appendFileSync(file, JSON.stringify(record) + '\n');

const fmt = (x, d = 0) => (x === undefined || x === null ? '' : Number(x).toFixed(d));
const pct = (x) => `${fmt(x * 100, 1)}%`;
console.log(`\n${info.cpuModel}, ${info.nproc} cores, node ${info.node}, load ${info.loadAverage1m5m15m.join(' ')}; medians of ${ROUNDS} rounds of ${duration} s`);
console.log('| scenario | per s | p50 ms | p99 ms | ceiling per s | ratio | ratio per round | µs CPU each | ceiling µs CPU | CPU ratio | CPU ratio per round |\n|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---|');
for (const r of summary) {
  console.log(`| ${r.name} | ${fmt(r.perSec)} | ${fmt(r.p50Ms, 1)} | ${fmt(r.p99Ms, 1)} | ${fmt(r.ceilingPerSec)} | ${pct(r.ratio)} | ${r.ratios.map(pct).join(', ')} | ${fmt(r.cpuUsPerOp)} | ${fmt(r.ceilingCpuUsPerOp)} | ${pct(r.cpuRatio)} | ${r.cpuRatios.map(pct).join(', ')} |`);
}
console.log(`appended to ${file}`);
