// What the HTTP framework costs a request (issue 17): the same POST (a path parameter, a JSON body
// parsed, a JSON answer) served by Fastify and by node:http alone, nothing else, measured in
// alternation, CPU time of each server process per request. It answers whether a server that kept
// the checkout's rules without a framework could reach the checkout goal (bench/README.md).
// Usage: node bench/http-floor.mjs [--rounds 4] [--duration 3]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { machine, processCpuMicros, ROOT, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '4' }, duration: { type: 'string', default: '3' } } });
const KINDS = ['fastify', 'node'];

async function start(kind) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'http-floor-server.mjs'), kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code})`)));
    child.stdout.on('data', (d) => {
      const m = /listening on (\S+)/.exec(String(d));
      if (m) resolve(m[1]);
    });
  });
  return { child, url };
}

const info = machine();
const servers = Object.fromEntries(await Promise.all(KINDS.map(async (k) => [k, await start(k)])));
// The checkout's request as the ceiling bench sends it (8 connections, agent key, run header).
const request = {
  connections: 8,
  method: 'POST',
  path: '/rules/issues/01a21fae-1d56-71bf-9cf8-322de3ab5b2b/checkout',
  headers: { authorization: 'Bearer hca_bench', 'content-type': 'application/json', 'x-service-run-id': '01a21fae-1d29-7718-a07d-359d2d85886e' },
  body: JSON.stringify({ expectedStatuses: ['todo'] }),
};
const samples = Object.fromEntries(KINDS.map((k) => [k, []]));
for (let round = 1; round <= Number(values.rounds); round++) {
  for (const kind of round % 2 ? KINDS : [...KINDS].reverse()) {
    const { child, url } = servers[kind];
    await autocannon({ url, ...request, duration: 1 });
    const before = processCpuMicros(child.pid);
    const r = await autocannon({ url, ...request, duration: Number(values.duration) });
    const sample = { perSec: r.requests.average, cpuUsPerRequest: (processCpuMicros(child.pid) - before) / r.requests.total, non2xx: r.non2xx };
    samples[kind].push(sample);
    console.log(`round ${round} ${kind}: ${sample.perSec.toFixed(0)}/s, ${sample.cpuUsPerRequest.toFixed(1)} µs CPU a request`);
  }
}
for (const { child } of Object.values(servers)) child.kill();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = Object.fromEntries(KINDS.map((k) => [k, { cpuUsPerRequest: median(samples[k].map((s) => s.cpuUsPerRequest)), perSec: median(samples[k].map((s) => s.perSec)) }]));
console.log(`\n${info.cpuModel}, ${info.nproc} cores, node ${info.node}; medians of ${values.rounds} rounds of ${values.duration} s`);
console.log(`Fastify ${summary.fastify.cpuUsPerRequest.toFixed(1)} µs CPU a request, node:http ${summary.node.cpuUsPerRequest.toFixed(1)}: the framework ${(summary.fastify.cpuUsPerRequest - summary.node.cpuUsPerRequest).toFixed(1)} µs a request`);
console.log(`written to ${writeResult('http-floor', { date: new Date().toISOString(), command: 'node bench/http-floor.mjs', machine: info, settings: { ...values, connections: request.connections }, summary, samples })}`);
