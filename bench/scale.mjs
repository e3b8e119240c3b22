// Scale: one company of 200 agents, 100,000 issues and 1,000,000 comments, the scale issue 17 sets
// (plus an activity row per issue and comment, 100,000 cost events, 10,000 finished runs; 100 agents
// before 2026-11-27, evening). Measures p50/p99 of the main board
// routes and of checkout over HTTP, the database size, and 50 agents running the fake agent CLI at
// once under the global cap. The same is first measured at a tenth of the size (--compare), so a
// route whose cost grows with the data shows up as a ratio.
//   npm run build && node bench/scale.mjs [--scale 1] [--compare 0.1] [--duration 5] [--fleet 50]
// The data is seeded straight into the (stopped) server's database file in one transaction: creating
// it over HTTP would only measure the seeding. Everything measured goes over HTTP.
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { ROOT, keepHome, machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    compare: { type: 'string', default: '0.1' },
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    fleet: { type: 'string', default: '50' },
    connections: { type: 'string', default: '4' },
    // Keep the seeded home of the last scale (its path is printed) to look into a slow route.
    keep: { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
const WARMUP = Number(values.warmup);
const FLEET = Number(values.fleet);
const TOKEN = 'hcb_bench-board-token';
const AGENTS = 200;
const CLIENTS = 8;
const CONNECTIONS = Number(values.connections);
const FAKE_AGENT = path.join(ROOT, 'test', 'fixtures', 'fake-agent.mjs');
const log = (s) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

requireBuild();
const info = machine();

/**
 * Waits until the server answers the health route quickly: requests autocannon left queued when it
 * stopped are still being served, and must not be billed to the next route.
 */
async function settle(server) {
  const end = performance.now() + 60_000;
  while (performance.now() < end) {
    const t0 = performance.now();
    await (await fetch(`${server.url}/api/health`)).arrayBuffer();
    if (performance.now() - t0 < 50) return;
    await sleep(200);
  }
}

async function measure(scale, withFleet) {
  const N_ISSUES = Math.round(100_000 * scale);
  const N_COMMENTS = Math.round(1_000_000 * scale);
  const N_COSTS = Math.round(100_000 * scale);
  const N_RUNS = Math.round(10_000 * scale);
  const home = tempHome('headcount-scale-');
  let server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
  const board = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const call = async (method, url, body, headers = board) => {
    const res = await fetch(server.url + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };

  // Agents over HTTP (their configs, keys and revisions are real): a CEO, 49 reports with keys
  // (checkout clients), 50 running the fake CLI.
  const company = await call('POST', '/api/companies', { name: 'Scale Co' });
  const ceo = await call('POST', `/api/companies/${company.id}/agents`, { name: 'Ceo', role: 'ceo', adapterType: 'process', adapterConfig: { command: 'echo' } });
  const agents = [ceo];
  const keyed = [];
  for (let i = 1; i < AGENTS; i++) {
    const fake = i >= AGENTS - FLEET;
    const adapterConfig = fake ? { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'work' }, timeoutSec: 120 } : { command: 'echo' };
    const agent = await call('POST', `/api/companies/${company.id}/agents`, { name: `Agent ${i}`, role: 'engineer', reportsTo: ceo.id, adapterType: 'process', adapterConfig });
    agents.push({ ...agent, fake });
    if (keyed.length < CLIENTS && !fake) keyed.push({ ...agent, key: (await call('POST', `/api/agents/${agent.id}/keys`, {})).key });
  }
  const project = await call('POST', `/api/companies/${company.id}/projects`, { name: 'Main' });
  await stopServer(server);

  log(`scale ${scale}: seeding ${N_ISSUES} issues, ${N_COMMENTS} comments, ${N_COSTS} cost events, ${N_RUNS} runs`);
  const tSeed = performance.now();
  const db = new Database(path.join(home, 'service.db'));
  // A throw-away copy: no journal and a 1 GiB page cache, so the one big transaction neither
  // spills a WAL of hundreds of MiB nor rewrites index pages from disk (the random-UUID indexes).
  db.pragma('journal_mode = DELETE');
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1048576');
  const statuses = ['backlog', 'todo', 'todo', 'in_review', 'blocked', 'done', 'done', 'cancelled'];
  const priorities = ['critical', 'high', 'medium', 'low'];
  const insIssue = db.prepare(`INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, priority_rank, assignee_agent_id, project_id,
    created_by_type, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?, 'board', ?, ?, ?)`);
  const insComment = db.prepare('INSERT INTO issue_comments (id, company_id, issue_id, author_type, author_agent_id, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insActivity = db.prepare(`INSERT INTO activity (id, company_id, actor_type, actor_id, action, entity_type, entity_id, summary, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insCost = db.prepare(`INSERT INTO cost_events (id, company_id, agent_id, provider, model, input_tokens, output_tokens, cost_micro_cents, issue_id, occurred_at, created_at)
    VALUES (?, ?, ?, 'anthropic', 'claude-x', ?, ?, ?, ?, ?, ?)`);
  const insRun = db.prepare(`INSERT INTO heartbeat_runs (id, company_id, agent_id, status, trigger, reasons, adapter_type, exit_code, transcript_bytes, queued_at, started_at, finished_at)
    VALUES (?, ?, ?, 'succeeded', 'manual', '[]', 'process', 0, 0, ?, ?, ?)`);
  const issueIds = [];
  const base = Date.now() - 90 * 86_400_000;
  const iso = (ms) => new Date(ms).toISOString();
  db.transaction(() => {
    for (let n = 1; n <= N_ISSUES; n++) {
      const id = randomUUID();
      const p = n % 4;
      const at = iso(base + n * 10_000);
      const agent = agents[n % AGENTS];
      insIssue.run(id, company.id, n, `SC-${n}`, `Seeded issue ${n}`, statuses[n % statuses.length], priorities[p], p, n % 3 === 0 ? null : agent.id, n % 2 ? project.id : null, at, at, at);
      insActivity.run(randomUUID(), company.id, 'board', null, 'issue.created', 'issue', id, `Issue SC-${n} created`, at);
      issueIds.push(id);
    }
    db.prepare('UPDATE companies SET issue_counter = ?, issue_prefix = ? WHERE id = ?').run(N_ISSUES, 'SC', company.id);
    // 1% of the comments on one hot issue (SC-1), the rest spread evenly.
    const hot = Math.round(N_COMMENTS / 100);
    for (let c = 0; c < N_COMMENTS; c++) {
      const issue = c < hot ? issueIds[0] : issueIds[c % issueIds.length];
      const agent = agents[c % AGENTS];
      const at = iso(base + 1_000_000_000 + c * 1000);
      const id = randomUUID();
      insComment.run(id, company.id, issue, 'agent', agent.id, `Comment ${c}: progress note with a little **markdown**.`, at);
      insActivity.run(randomUUID(), company.id, 'agent', agent.id, 'issue.comment_added', 'issue', issue, `Comment on an issue`, at);
    }
    for (let c = 0; c < N_COSTS; c++) {
      const at = iso(Date.now() - (c % (20 * 86_400)) * 1000);
      insCost.run(randomUUID(), company.id, agents[c % AGENTS].id, 1000, 200, 1_000_000 + (c % 1000), issueIds[c % issueIds.length], at, at);
    }
    for (let r = 0; r < N_RUNS; r++) {
      const at = base + r * 60_000;
      insRun.run(randomUUID(), company.id, agents[r % AGENTS].id, iso(at), iso(at + 100), iso(at + 5000));
    }
  })();
  db.pragma('journal_mode = WAL');
  db.close();
  const seedSec = round((performance.now() - tSeed) / 1000);
  const dbBytes = statSync(path.join(home, 'service.db')).size;
  log(`   seeded in ${seedSec} s; database ${round(dbBytes / 2 ** 20)} MiB`);

  server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
  // The seeded texts were only marked pending by the search triggers: the server indexes them in
  // the background (search/indexer.ts). Measured here, and waited for before any route is.
  const tIndex = performance.now();
  const reader = new Database(path.join(home, 'service.db'), { readonly: true });
  const pendingTexts = () => reader.prepare('SELECT count(*) AS n FROM search_docs WHERE pending = 1').get().n;
  const textsToIndex = pendingTexts();
  while (pendingTexts() > 0) await new Promise((r) => setTimeout(r, 250));
  reader.close();
  const indexSec = round((performance.now() - tIndex) / 1000);
  log(`   search index caught up with ${textsToIndex} texts in ${indexSec} s`);
  const rssKiB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))?.[1] ?? 0);
  const mid = issueIds[Math.floor(issueIds.length / 2)];
  const routes = [
    ['GET /api/companies', '/api/companies'],
    ['GET /api/companies/{id}', `/api/companies/${company.id}`],
    ['GET agents list (200)', `/api/companies/${company.id}/agents`],
    ['GET org', `/api/companies/${company.id}/org`],
    ['GET issues, first page', `/api/companies/${company.id}/issues`],
    ['GET issues ?status=todo', `/api/companies/${company.id}/issues?status=todo`],
    ['GET issues ?assigneeAgentId=', `/api/companies/${company.id}/issues?assigneeAgentId=${agents[7].id}`],
    ['GET issue (mid)', `/api/issues/${mid}`],
    ['GET comments (10 on the issue)', `/api/issues/${issueIds[7]}/comments`],
    ['GET comments (hot issue, 1% of all)', `/api/issues/${issueIds[0]}/comments`],
    ['GET activity', `/api/companies/${company.id}/activity`],
    ['GET costs summary', `/api/companies/${company.id}/costs/summary`],
    ['GET costs by agent', `/api/companies/${company.id}/costs/by-agent`],
    ['GET heartbeat runs', `/api/companies/${company.id}/heartbeat-runs`],
    // An eighth of the seeded issues sit blocked for months: every one of them is in the inbox.
    ['GET inbox', `/api/companies/${company.id}/inbox`],
  ];
  const results = [];
  for (const [name, p] of routes) {
    const tProbe = performance.now();
    const probe = await fetch(server.url + p, { headers: board });
    await probe.arrayBuffer();
    const probeMs = round(performance.now() - tProbe);
    await settle(server);
    const r = await autocannon({ url: server.url, connections: CONNECTIONS, duration: DURATION, warmup: { connections: CONNECTIONS, duration: WARMUP }, timeout: 60, headers: board, requests: [{ method: 'GET', path: p }] });
    results.push({ name, path: p.replace(/[0-9a-f-]{36}/g, '{id}'), status: probe.status, firstRequestMs: probeMs, requestsPerSec: round(r.requests.average), p50Ms: r.latency.p50, p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors });
    log(`   ${name}: first ${probeMs} ms, ${round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${r.non2xx ? `, ${r.non2xx} non-2xx` : ''}`);
  }

  // Checkout + release cycles, 8 agents on their own todo issues.
  await settle(server);
  const todo = (await call('GET', `/api/companies/${company.id}/issues?status=todo&limit=200`)).items.filter((i) => !i.checkoutAgentId).map((i) => i.id);
  const lat = [];
  let refused = 0;
  const deadline = performance.now() + DURATION * 1000;
  await Promise.all(
    keyed.map(async (agent, c) => {
      const headers = { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json' };
      const mine = todo.filter((_, i) => i % CLIENTS === c);
      for (let k = 0; performance.now() < deadline; k++) {
        const issue = mine[k % mine.length];
        const t0 = performance.now();
        const a = await fetch(`${server.url}/api/issues/${issue}/checkout`, { method: 'POST', headers, body: JSON.stringify({ expectedStatuses: ['todo'] }) });
        await a.arrayBuffer();
        const b = await fetch(`${server.url}/api/issues/${issue}/release`, { method: 'POST', headers });
        await b.arrayBuffer();
        if (a.status !== 200 || b.status !== 200) refused++;
        lat.push(performance.now() - t0);
      }
    }),
  );
  lat.sort((x, y) => x - y);
  const q = (p) => round(lat[Math.min(lat.length - 1, Math.floor(p * lat.length))]);
  const checkout = { clients: CLIENTS, cyclesPerSec: round(lat.length / DURATION), cycleP50Ms: q(0.5), cycleP99Ms: q(0.99), refused };
  log(`   checkout+release: ${checkout.cyclesPerSec} cycles/s, p50 ${checkout.cycleP50Ms} ms, p99 ${checkout.cycleP99Ms} ms, refused ${refused}`);

  let fleet = null;
  if (withFleet && FLEET > 0) {
    const members = agents.filter((a) => a.fake).slice(0, FLEET);
    const tasks = [];
    for (const m of members) tasks.push((await call('POST', `/api/companies/${company.id}/issues`, { title: `Fleet task for ${m.name}`, status: 'todo' })).id);
    const rss0 = rssKiB();
    let rssMax = rss0;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssKiB())), 250);
    const t0 = performance.now();
    await Promise.all(members.map((m, i) => call('POST', `/api/agents/${m.id}/heartbeat/invoke`, { issueId: tasks[i] })));
    const acceptedMs = performance.now() - t0;
    const ids = new Set(members.map((m) => m.id));
    let runs = [];
    for (;;) {
      const page = await call('GET', `/api/companies/${company.id}/heartbeat-runs?limit=200`);
      runs = page.items.filter((r) => ids.has(r.agentId) && Date.parse(r.queuedAt) >= Date.now() - 600_000);
      if (runs.length >= FLEET && runs.every((r) => !['queued', 'running'].includes(r.status))) break;
      if (performance.now() - t0 > 600_000) throw new Error('fleet did not finish in 10 minutes');
      await sleep(200);
    }
    clearInterval(sampler);
    const wallMs = performance.now() - t0;
    const edges = runs.flatMap((r) => [[Date.parse(r.startedAt), 1], [Date.parse(r.finishedAt), -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let cur = 0;
    let maxConcurrent = 0;
    for (const [, d] of edges) maxConcurrent = Math.max(maxConcurrent, (cur += d));
    const byStatus = {};
    for (const r of runs) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const dur = runs.map((r) => Date.parse(r.finishedAt) - Date.parse(r.startedAt)).sort((a, b) => a - b);
    const settings = await call('GET', '/api/settings');
    fleet = {
      agents: FLEET,
      cap: settings.maxConcurrentRuns,
      runs: runs.length,
      byStatus,
      invokesAcceptedMs: round(acceptedMs, 0),
      wallMs: round(wallMs, 0),
      runsPerSec: round(runs.length / (wallMs / 1000), 2),
      maxConcurrentFromTimestamps: maxConcurrent,
      runDurationP50Ms: dur[Math.floor(dur.length / 2)],
      runDurationMaxMs: dur[dur.length - 1],
      serverRssMiB: { before: round(rss0 / 1024), max: round(rssMax / 1024) },
    };
    log(`   fleet: ${runs.length} runs ${JSON.stringify(byStatus)} in ${fleet.wallMs} ms, max concurrent ${maxConcurrent} (cap ${fleet.cap})`);
  }
  const rssMiB = round(rssKiB() / 1024);
  await stopServer(server);
  if (values.keep) {
    keepHome(home);
    log(`   kept ${home}`);
  }
  else rmSync(home, { recursive: true, force: true });
  return { scale, issues: N_ISSUES, comments: N_COMMENTS, activityRows: N_ISSUES + N_COMMENTS, costEvents: N_COSTS, runs: N_RUNS, agents: AGENTS, seedSec, textsToIndex, indexSec, dbBytes, dbMiB: round(dbBytes / 2 ** 20), serverRssMiBAfter: rssMiB, routes: results, checkout, fleet };
}

const scales = [];
if (Number(values.compare) > 0) scales.push(await measure(Number(values.compare), false));
scales.push(await measure(Number(values.scale), true));
const small = scales.length > 1 ? scales[0] : null;
const big = scales[scales.length - 1];
const growth = small
  ? big.routes.map((r, i) => ({ route: r.name, p50Ratio: round(r.p50Ms / Math.max(small.routes[i].p50Ms, 0.5), 2), dataRatio: round(big.issues / small.issues, 1) }))
  : null;
const file = writeResult('scale', {
  date: new Date().toISOString(),
  command: `npm run build && node bench/scale.mjs --scale ${values.scale} --compare ${values.compare} --duration ${DURATION} --connections ${CONNECTIONS} --fleet ${FLEET}`,
  machine: info,
  loadAverageAtEnd: machine().loadAverage1m5m15m,
  settings: { durationSec: DURATION, warmupSec: WARMUP, connections: CONNECTIONS, checkoutClients: CLIENTS },
  scales,
  growth,
});
console.log(`\n${info.cpuModel}, ${info.nproc} cores, Node ${info.node}, load ${info.loadAverage1m5m15m.join(' ')}`);
for (const s of scales) {
  console.log(`\n### ${s.issues.toLocaleString('en-US')} issues, ${s.comments.toLocaleString('en-US')} comments: database ${s.dbMiB} MiB, seeded in ${s.seedSec} s\n`);
  console.log('| route | req/s | p50 ms | p99 ms | non-2xx |\n|---|---:|---:|---:|---:|');
  for (const r of s.routes) console.log(`| ${r.name} | ${r.requestsPerSec} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} |`);
  console.log(`\ncheckout+release: ${s.checkout.cyclesPerSec}/s, p50 ${s.checkout.cycleP50Ms} ms, p99 ${s.checkout.cycleP99Ms} ms, refused ${s.checkout.refused}`);
  if (s.fleet) console.log(`fleet: ${JSON.stringify(s.fleet)}`);
}
if (growth) console.log(`\np50 ratio (x${growth[0].dataRatio} data): ${growth.map((g) => `${g.route} ${g.p50Ratio}`).join('; ')}`);
console.log(`written to ${file}`);
