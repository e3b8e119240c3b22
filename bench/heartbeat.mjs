// Heartbeat engine: invoke -> spawn latency, process output -> event latency, a run printing 50 MB
// (server memory, stored transcript, paging it back), and 50 agents under the concurrency cap.
// Runs the built server (`npm run build` first). Usage:
//   node bench/heartbeat.mjs [--runs 30] [--mb 50] [--agents 50]   (--agents 0 skips part 4)
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT, machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    mb: { type: 'string', default: '50' },
    agents: { type: 'string', default: '50' },
  },
});
const RUNS = Number(values.runs);
const MB = Number(values.mb);
const FLEET = Number(values.agents);
const TOKEN = 'hcb_bench-board-token';
const FAKE_AGENT = path.join(ROOT, 'test', 'fixtures', 'fake-agent.mjs');

requireBuild();
const info = machine(); // before any load of our own
const home = tempHome();
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const serverPid = server.child.pid;
// If the benchmark fails, do not leave the server running.
process.on('exit', () => server.child.exitCode === null && server.child.kill('SIGKILL'));
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const log = (s) => process.stderr.write(s + '\n');

async function api(method, p, body, expect = [200, 201, 202]) {
  const res = await fetch(server.url + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${p}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

// ---------------------------------------------------------------------------------------------
// Statistics
const round = (n, d = 1) => (n === null || n === undefined || Number.isNaN(n) ? null : Math.round(n * 10 ** d) / 10 ** d);
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return { n: 0, p50: null, p95: null, max: null, min: null, mean: null };
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, min: round(s[0]), p50: round(q(0.5)), p95: round(q(0.95)), max: round(s[s.length - 1]), mean: round(s.reduce((a, b) => a + b, 0) / s.length) };
}
const rssKiB = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serverPid}/status`, 'utf8'));
  return m ? Number(m[1]) : null;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// The company's event stream, read with fetch streaming. Every event is stamped on arrival with
// Date.now() (comparable with the server's and the children's clocks: same machine) and
// performance.now() (for intervals measured here).
const company = await api('POST', '/api/companies', { name: 'Heartbeat Bench Co' });
const listeners = new Set();
const sseStats = { events: 0, runLogBytes: 0 };
const sseAbort = new AbortController();
const sseRes = await fetch(`${server.url}/api/companies/${company.id}/events`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: sseAbort.signal });
if (sseRes.status !== 200) throw new Error(`event stream: ${sseRes.status}`);
const sseDone = (async () => {
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of sseRes.body) {
      const wall = Date.now();
      const mono = performance.now();
      buf += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buf.indexOf('\n\n')) !== -1) {
        const block = buf.slice(0, end);
        buf = buf.slice(end + 2);
        let type = 'message';
        let data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) type = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (!data) continue;
        const e = { type, data: JSON.parse(data), wall, mono };
        sseStats.events++;
        if (type === 'run.log') sseStats.runLogBytes += e.data.data.length;
        for (const l of listeners) l(e);
      }
    }
  } catch (err) {
    if (err.name !== 'AbortError') throw err;
  }
})();

/** Resolves with the first event matching `pred` (registered before the triggering request). */
function waitEvent(pred, timeoutMs = 60_000, label = String(pred)) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(async () => {
      listeners.delete(l);
      const runs = await api('GET', `/api/companies/${company.id}/heartbeat-runs?limit=5`).catch((e) => e.message);
      reject(new Error(`timed out waiting for an event: ${label}; ${sseStats.events} events so far; newest runs: ${JSON.stringify(runs, null, 1)}`));
    }, timeoutMs);
    const l = (e) => {
      if (!pred(e)) return;
      clearTimeout(timer);
      listeners.delete(l);
      resolve(e);
    };
    listeners.add(l);
  });
}
const TERMINAL = new Set(['run.succeeded', 'run.failed', 'run.timed_out', 'run.cancelled', 'run.lost']);
// Every run end is kept: it may arrive in the same network chunk as the event that told us the run
// id, i.e. before a waiter registered after that could see it.
const endedRuns = new Map();
listeners.add((e) => TERMINAL.has(e.type) && endedRuns.set(e.data.entityId, e));
const runEnded = (runId) =>
  endedRuns.has(runId) ? Promise.resolve(endedRuns.get(runId)) : waitEvent((e) => TERMINAL.has(e.type) && e.data.entityId === runId, 120_000, `end of run ${runId}`);

async function hire(name, adapterConfig) {
  return api('POST', `/api/companies/${company.id}/agents`, { name, role: 'engineer', adapterType: 'process', adapterConfig: { timeoutSec: 120, graceMs: 500, ...adapterConfig } });
}
const nodeScript = (code) => ({ command: process.execPath, args: ['-e', code] });

// ---------------------------------------------------------------------------------------------
// 1. invoke -> spawn latency
log(`1. invoke -> first run.log event, ${RUNS} sequential runs of sh -c 'echo hi'`);
const echoAgent = await hire('Echo', { command: 'sh', args: ['-c', 'echo hi'] });
const spawnSamples = [];
for (let i = 0; i < RUNS; i++) {
  const queued = waitEvent((e) => e.type === 'run.queued');
  const started = waitEvent((e) => e.type === 'run.started');
  const firstLog = waitEvent((e) => e.type === 'run.log' && e.data.agentId === echoAgent.id);
  const t0Wall = Date.now();
  const t0 = performance.now();
  await api('POST', `/api/agents/${echoAgent.id}/heartbeat/invoke`, {});
  const t202 = performance.now();
  const [q, s, first] = await Promise.all([queued, started, firstLog]);
  const runId = first.data.runId;
  await runEnded(runId);
  const run = await api('GET', `/api/heartbeat-runs/${runId}`);
  if (run.status !== 'succeeded') throw new Error(`echo run ${runId} ended ${run.status}`);
  spawnSamples.push({
    runId,
    acceptedMs: t202 - t0,
    queuedEventMs: q.mono - t0,
    startedEventMs: s.mono - t0,
    firstLogEventMs: first.mono - t0,
    // startedAt has millisecond resolution and comes from the server's clock (same machine).
    startedAtMs: Date.parse(run.startedAt) - t0Wall,
    finishedAtMs: Date.parse(run.finishedAt) - t0Wall,
    pid: run.pid,
  });
  await sleep(20);
}
const spawn = {
  settings: { runs: RUNS, command: "sh -c 'echo hi'" },
  invokeAcceptedMs: stats(spawnSamples.map((s) => s.acceptedMs)),
  toRunQueuedEventMs: stats(spawnSamples.map((s) => s.queuedEventMs)),
  toStartedAtMs: stats(spawnSamples.map((s) => s.startedAtMs)),
  toRunStartedEventMs: stats(spawnSamples.map((s) => s.startedEventMs)),
  toFirstRunLogEventMs: stats(spawnSamples.map((s) => s.firstLogEventMs)),
  toFinishedAtMs: stats(spawnSamples.map((s) => s.finishedAtMs)),
  allHavePid: spawnSamples.every((s) => typeof s.pid === 'number'),
  samples: spawnSamples.map((s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'number' && k !== 'pid' ? round(v, 2) : v]))),
};
log(`   first run.log p50 ${spawn.toFirstRunLogEventMs.p50} ms, startedAt p50 ${spawn.toStartedAtMs.p50} ms`);

// ---------------------------------------------------------------------------------------------
// 2. process output -> event latency
log('2. a child printing Date.now() every 100 ms for 5 s');
const tickerAgent = await hire('Ticker', nodeScript("const end=Date.now()+5000;const t=setInterval(()=>{process.stdout.write(Date.now()+'\\n');if(Date.now()>=end)clearInterval(t)},100)"));
const tickEvents = [];
const onTick = (e) => e.type === 'run.log' && e.data.agentId === tickerAgent.id && tickEvents.push(e);
listeners.add(onTick);
// Poll the log route meanwhile: when does each line become readable from the transcript file?
const firstInFile = new Map(); // child timestamp -> Date.now() when the log route first returned it
let tickerRunId = null;
let polling = true;
const poller = (async () => {
  let offset = 0;
  while (polling) {
    if (tickerRunId) {
      const page = await api('GET', `/api/heartbeat-runs/${tickerRunId}/log?offset=${offset}`);
      const now = Date.now();
      for (const r of page.records) for (const line of r.data.split('\n').filter(Boolean)) if (!firstInFile.has(line)) firstInFile.set(line, now);
      offset = page.nextOffset;
    }
    await sleep(10);
  }
})();
const tickFirst = waitEvent((e) => e.type === 'run.log' && e.data.agentId === tickerAgent.id);
await api('POST', `/api/agents/${tickerAgent.id}/heartbeat/invoke`, {});
tickerRunId = (await tickFirst).data.runId;
await runEnded(tickerRunId);
await sleep(150); // a last poll of the file
polling = false;
await poller;
listeners.delete(onTick);
const eventLatency = [];
for (const e of tickEvents) for (const line of e.data.data.split('\n').filter(Boolean)) eventLatency.push(e.wall - Number(line));
// The transcript's records are the events, one for one and in order: split the latency into
// child -> server (record.at) and server -> client.
const tickLog = [];
for (let off = 0; ; ) {
  const page = await api('GET', `/api/heartbeat-runs/${tickerRunId}/log?offset=${off}`);
  tickLog.push(...page.records);
  off = page.nextOffset;
  if (page.done) break;
}
const childToServer = [];
const serverToClient = [];
if (tickLog.length === tickEvents.length) {
  tickLog.forEach((r, i) => {
    serverToClient.push(tickEvents[i].wall - r.at);
    for (const line of r.data.split('\n').filter(Boolean)) childToServer.push(r.at - Number(line));
  });
}
const fileLatency = [...firstInFile].map(([line, seen]) => seen - Number(line));
const output = {
  settings: { intervalMs: 100, durationSec: 5, logRoutePollMs: 10 },
  lines: eventLatency.length,
  runLogEvents: tickEvents.length,
  transcriptRecords: tickLog.length,
  eventLatencyMs: stats(eventLatency),
  childToServerMs: stats(childToServer),
  serverToClientMs: stats(serverToClient),
  readableFromLogRouteMs: stats(fileLatency),
};
log(`   event p50 ${output.eventLatencyMs.p50} ms, p95 ${output.eventLatencyMs.p95}; log route p50 ${output.readableFromLogRouteMs.p50} ms`);

// ---------------------------------------------------------------------------------------------
// 3. a run printing 50 MB
const LINE = 100; // bytes, newline included
const TOTAL = MB * 1024 * 1024;
log(`3. a run printing ${MB} MiB (${TOTAL / LINE} lines of ${LINE} bytes)`);
// This part measures storing and paging a whole transcript: the run gets a per-run cap above its
// output (the default, 50 MiB, would keep only its head and tail; test/api/limits covers that).
await api('PATCH', '/api/settings', { limits: { transcriptMaxBytes: 4 * TOTAL + 1024 * 1024 } });
const bigScript = `const line='x'.repeat(${LINE - 1})+'\\n';const chunk=line.repeat(1024);const total=${TOTAL};let sent=0;
function go(){while(sent<total){const c=total-sent>=chunk.length?chunk:chunk.slice(0,total-sent);sent+=c.length;if(!process.stdout.write(c)){process.stdout.once('drain',go);return}}}go()`;
const bigAgent = await hire('Firehose', nodeScript(bigScript));
let bigRunId = null;
let bigEvents = 0;
let bigEventBytes = 0;
const onBig = (e) => {
  if (e.type === 'run.log' && e.data.agentId === bigAgent.id) {
    bigEvents++;
    bigEventBytes += e.data.data.length;
  }
};
listeners.add(onBig);
await sleep(500);
const rssBefore = rssKiB();
const rssSamples = [];
const t3 = performance.now();
const sampler = setInterval(() => rssSamples.push({ ms: round(performance.now() - t3, 0), kib: rssKiB() }), 250);
const bigFirst = waitEvent((e) => e.type === 'run.log' && e.data.agentId === bigAgent.id);
await api('POST', `/api/agents/${bigAgent.id}/heartbeat/invoke`, {});
bigRunId = (await bigFirst).data.runId;
await runEnded(bigRunId);
const endMs = performance.now() - t3;
const rssAtEnd = rssKiB();
// Keep sampling for 2 s: what stays resident after the run.
await sleep(2000);
clearInterval(sampler);
listeners.delete(onBig);
const rssAfter = rssKiB();
const bigRun = await api('GET', `/api/heartbeat-runs/${bigRunId}`);
const fileBytes = statSync(path.join(home, 'runs', `${bigRunId}.jsonl`)).size;
const tPage = performance.now();
let pages = 0;
let pagedRecords = 0;
let pagedPayload = 0;
for (let off = 0; ; ) {
  const page = await api('GET', `/api/heartbeat-runs/${bigRunId}/log?offset=${off}`);
  pages++;
  pagedRecords += page.records.length;
  for (const r of page.records) pagedPayload += Buffer.byteLength(r.data);
  off = page.nextOffset;
  if (page.done) break;
}
const pageMs = performance.now() - tPage;
const maxRss = Math.max(rssBefore, ...rssSamples.map((s) => s.kib));
// The company's event buffer keeps its last 1,000 events (replay for Last-Event-ID) whatever their
// size, so it still holds the big run's run.log chunks. Push them out with 1,500 tiny events and
// look at RSS again: if it falls, the buffer was what held the memory.
const flushAgent = await hire('Flusher', nodeScript("let i=0;const t=setInterval(()=>{process.stdout.write(i+'\\n');if(++i>=1500)clearInterval(t)},1)"));
let flushEvents = 0;
const onFlush = (e) => e.type === 'run.log' && e.data.agentId === flushAgent.id && flushEvents++;
listeners.add(onFlush);
const flushFirst = waitEvent((e) => e.type === 'run.log' && e.data.agentId === flushAgent.id);
await api('POST', `/api/agents/${flushAgent.id}/heartbeat/invoke`, {});
const flushRunId = (await flushFirst).data.runId;
await runEnded(flushRunId);
listeners.delete(onFlush);
await sleep(2000);
const rssAfterFlush = rssKiB();
const big = {
  settings: { payloadBytes: TOTAL, lineBytes: LINE, rssSampleMs: 250 },
  status: bigRun.status,
  exitCode: bigRun.exitCode,
  runDurationMs: Date.parse(bigRun.finishedAt) - Date.parse(bigRun.startedAt),
  invokeToEndEventMs: round(endMs, 0),
  rssMiB: {
    before: round(rssBefore / 1024),
    max: round(maxRss / 1024),
    atEnd: round(rssAtEnd / 1024),
    twoSecondsAfter: round(rssAfter / 1024),
    maxGrowth: round((maxRss - rssBefore) / 1024),
    afterEvictingFromEventBuffer: round(rssAfterFlush / 1024),
  },
  evictingRun: { runLogEvents: flushEvents },
  rssSamples: rssSamples.map((s) => ({ ms: s.ms, mib: round(s.kib / 1024) })),
  transcriptBytes: bigRun.transcriptBytes,
  fileBytes,
  runLogEvents: bigEvents,
  runLogEventPayloadBytes: bigEventBytes,
  logRoute: { pages, records: pagedRecords, payloadBytes: pagedPayload, ms: round(pageMs, 0), mibPerSec: round(fileBytes / 2 ** 20 / (pageMs / 1000)) },
  fullTranscriptStored: pagedPayload === TOTAL && bigRun.transcriptBytes >= TOTAL && fileBytes === bigRun.transcriptBytes,
};
log(`   ${big.status} in ${big.runDurationMs} ms, RSS ${big.rssMiB.before} -> max ${big.rssMiB.max} MiB; paged ${pages} pages in ${big.logRoute.ms} ms`);

// ---------------------------------------------------------------------------------------------
// 4. many agents at once under the cap
let fleet = null;
if (FLEET > 0) {
  log(`4. ${FLEET} agents running the fake agent at once (cap: the default)`);
  const members = [];
  for (let i = 0; i < FLEET; i++) {
    const agent = await hire(`Fake ${i + 1}`, { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'work' } });
    // Unassigned, so creating it wakes nobody; the fake agent checks it out itself.
    const issue = await api('POST', `/api/companies/${company.id}/issues`, { title: `Fleet task ${i + 1}`, status: 'todo' });
    members.push({ agent, issue });
  }
  const ids = new Set(members.map((m) => m.agent.id));
  const runIds = new Set();
  let running = 0;
  let maxRunningEvents = 0;
  const onFleet = (e) => {
    if (e.type === 'run.started' && !runIds.has(e.data.entityId) && fleetRunIds.has(e.data.entityId)) {
      running++;
      maxRunningEvents = Math.max(maxRunningEvents, running);
    } else if (TERMINAL.has(e.type) && fleetRunIds.has(e.data.entityId)) {
      running--;
      runIds.add(e.data.entityId);
    }
  };
  // run.started carries the run id but not the agent: a run is ours if it is neither an earlier one.
  const earlier = new Set([...spawnSamples.map((s) => s.runId), tickerRunId, bigRunId, flushRunId]);
  const fleetRunIds = { has: (id) => !earlier.has(id) };
  listeners.add(onFleet);
  const allEnded = new Promise((resolve) => {
    const l = (e) => {
      if (TERMINAL.has(e.type) && !earlier.has(e.data.entityId) && runIds.size >= FLEET) {
        listeners.delete(l);
        resolve();
      }
    };
    listeners.add(l);
  });
  const t4 = performance.now();
  await Promise.all(members.map((m) => api('POST', `/api/agents/${m.agent.id}/heartbeat/invoke`, { issueId: m.issue.id })));
  const invokedMs = performance.now() - t4;
  await allEnded;
  const wallMs = performance.now() - t4;
  listeners.delete(onFleet);
  const runs = [];
  for (const m of members) {
    const list = await api('GET', `/api/companies/${company.id}/heartbeat-runs?agentId=${m.agent.id}`);
    runs.push(...list.items);
  }
  if (runs.some((r) => !ids.has(r.agentId))) throw new Error('a run of another agent in the fleet list');
  // Overlap from the server's own timestamps (ms resolution): sweep starts and finishes.
  const edges = runs.flatMap((r) => [
    [Date.parse(r.startedAt), 1],
    [Date.parse(r.finishedAt), -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // a finish before a start at the same ms
  let cur = 0;
  let maxRunningTimestamps = 0;
  for (const [, d] of edges) maxRunningTimestamps = Math.max(maxRunningTimestamps, (cur += d));
  const byStatus = {};
  for (const r of runs) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
  fleet = {
    settings: { agents: FLEET, command: 'node test/fixtures/fake-agent.mjs (FAKE_MODE=work: 5 API calls with its run token)', cap: 'default (4)' },
    runs: runs.length,
    byStatus,
    allInvokesAcceptedMs: round(invokedMs, 0),
    wallMs: round(wallMs, 0),
    maxConcurrentFromEvents: maxRunningEvents,
    maxConcurrentFromTimestamps: maxRunningTimestamps,
    runDurationMs: stats(runs.map((r) => Date.parse(r.finishedAt) - Date.parse(r.startedAt))),
    queuedToStartedMs: stats(runs.map((r) => Date.parse(r.startedAt) - Date.parse(r.queuedAt))),
    runsPerSec: round(runs.length / (wallMs / 1000), 2),
  };
  log(`   ${runs.length} runs in ${fleet.wallMs} ms, max concurrent ${maxRunningEvents} (events) / ${maxRunningTimestamps} (timestamps)`);
}

// ---------------------------------------------------------------------------------------------
sseAbort.abort();
await sseDone;
await stopServer(server);
rmSync(home, { recursive: true, force: true });

const file = writeResult('heartbeat', {
  date: new Date().toISOString(),
  command: 'npm run build && node bench/heartbeat.mjs',
  machine: info,
  spawn,
  output,
  big,
  fleet,
  eventStream: sseStats,
});

const fmt = (n, d = 0) => (n === null || n === undefined ? '-' : n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }));
const row = (name, s) => `| ${name} | ${fmt(s.p50, 1)} | ${fmt(s.p95, 1)} | ${fmt(s.max, 1)} |`;
console.log(`\n${info.cpuModel}, ${info.nproc} cores, ${info.memoryGiB} GiB, Node ${info.node}\n`);
console.log(`### invoke -> spawn (${RUNS} sequential runs of \`sh -c 'echo hi'\`), ms from sending POST invoke\n`);
console.log('| until | p50 | p95 | max |\n|---|---:|---:|---:|');
console.log(row('202 received', spawn.invokeAcceptedMs));
console.log(row('run.queued event', spawn.toRunQueuedEventMs));
console.log(row('run startedAt (server clock)', spawn.toStartedAtMs));
console.log(row('run.started event', spawn.toRunStartedEventMs));
console.log(row('first run.log event', spawn.toFirstRunLogEventMs));
console.log(row('run finishedAt (server clock)', spawn.toFinishedAtMs));
console.log(`\n### process output -> event (${output.lines} lines, one every 100 ms), ms\n`);
console.log('| latency | p50 | p95 | max |\n|---|---:|---:|---:|');
console.log(row('child timestamp -> run.log event received', output.eventLatencyMs));
console.log(row('child timestamp -> transcript record `at`', output.childToServerMs));
console.log(row('record `at` -> run.log event received', output.serverToClientMs));
console.log(row('child timestamp -> readable on the log route (10 ms polling)', output.readableFromLogRouteMs));
console.log(`\n${output.runLogEvents} run.log events, ${output.transcriptRecords} transcript records.`);
console.log(`\n### a run printing ${MB} MiB\n`);
console.log(`- ${big.status} (exit ${big.exitCode}) in ${fmt(big.runDurationMs)} ms (startedAt -> finishedAt)`);
console.log(`- server RSS: ${big.rssMiB.before} MiB before, max ${big.rssMiB.max} MiB during (growth ${big.rssMiB.maxGrowth} MiB), ${big.rssMiB.atEnd} at the end, ${big.rssMiB.twoSecondsAfter} 2 s later`);
console.log(`- after ${big.evictingRun.runLogEvents} small run.log events pushed the big run's chunks out of the company's 1,000-event replay buffer: ${big.rssMiB.afterEvictingFromEventBuffer} MiB`);
console.log(`- transcriptBytes ${fmt(big.transcriptBytes)}, file ${fmt(big.fileBytes)} bytes; payload ${fmt(TOTAL)} bytes; ${fmt(big.runLogEvents)} run.log events carrying ${fmt(big.runLogEventPayloadBytes)} characters`);
console.log(`- paging the log route: ${big.logRoute.pages} pages, ${fmt(big.logRoute.records)} records, ${fmt(big.logRoute.payloadBytes)} payload bytes in ${fmt(big.logRoute.ms)} ms (${big.logRoute.mibPerSec} MiB/s of file); full transcript stored: ${big.fullTranscriptStored}`);
if (fleet) {
  console.log(`\n### ${FLEET} agents at once\n`);
  console.log(`- ${fleet.runs} runs (${Object.entries(fleet.byStatus).map(([k, v]) => `${v} ${k}`).join(', ')}) in ${fmt(fleet.wallMs)} ms wall (${fleet.runsPerSec} runs/s); all ${FLEET} invokes accepted in ${fleet.allInvokesAcceptedMs} ms`);
  console.log(`- max concurrent: ${fleet.maxConcurrentFromEvents} (from run.started/ended events), ${fleet.maxConcurrentFromTimestamps} (from startedAt/finishedAt)`);
  console.log(`- run duration p50 ${fleet.runDurationMs.p50} ms, p95 ${fleet.runDurationMs.p95} ms; queued -> started p50 ${fleet.queuedToStartedMs.p50} ms, max ${fleet.queuedToStartedMs.max} ms`);
}
console.log(`\nwritten to ${file}`);
