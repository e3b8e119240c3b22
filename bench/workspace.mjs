// Issue workspaces on a 10,000-file repository: creating the clone on an issue's first run, and the
// workspace and diff endpoints, against the built server (`npm run build` first).
// Usage: node bench/workspace.mjs [--files 10000] [--requests 20]
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { machine, requireBuild, startServer, stopServer, tempHome, writeResult } from './lib.mjs';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, requests: { type: 'string', default: '20' } } });
const FILES = Number(values.files);
const REQUESTS = Number(values.requests);
const TOKEN = 'hcb_bench-board-token';
const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b' };
const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: gitEnv, encoding: 'utf8', maxBuffer: 1 << 26 }).trim();

requireBuild();
const info = machine();
const repo = mkdtempSync(path.join(os.tmpdir(), 'headcount-bench-repo-'));
git(repo, 'init', '-q', '-b', 'main');
for (let i = 0; i < FILES; i++) {
  const dir = path.join(repo, `pkg${Math.floor(i / 100)}`);
  if (i % 100 === 0) mkdirSync(dir);
  writeFileSync(path.join(dir, `file${i}.ts`), `export const value${i} = ${i};\n// ${'x'.repeat(200)}\n`);
}
git(repo, 'add', '-A');
git(repo, 'commit', '-qm', 'ten thousand files');

const home = tempHome();
const server = await startServer(home, { SERVICE_BOARD_TOKEN: TOKEN });
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
async function api(method, p, body) {
  const res = await fetch(server.url + p, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
const company = await api('POST', '/api/companies', { name: 'Bench Co' });
const project = await api('POST', `/api/companies/${company.id}/projects`, { name: 'Big repo', workspace: { repoPath: repo } });
// The agent changes 50 files and commits them; `true` for the second run (the clone is reused).
const change = 'for i in $(seq 0 49); do echo "// changed" >> pkg$i/file$((i*100)).ts; done; git add -A; git commit -qm change';
const agent = await api('POST', `/api/companies/${company.id}/agents`, { name: 'Bench agent', adapterType: 'process', adapterConfig: { command: '/bin/sh', args: ['-c', `if [ -f .done ]; then true; else ${change}; touch .done; fi`], env: gitEnv, timeoutSec: 120 } });
const issue = await api('POST', `/api/companies/${company.id}/issues`, { title: 'Change 50 files', status: 'todo', projectId: project.id });

async function runOnce() {
  const started = performance.now();
  await api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { issueId: issue.id });
  for (;;) {
    const runs = (await api('GET', `/api/companies/${company.id}/heartbeat-runs?agentId=${agent.id}`)).items;
    const open = runs.filter((r) => ['queued', 'running'].includes(r.status));
    if (open.length === 0 && runs.length > 0) {
      if (runs[0].status !== 'succeeded') throw new Error(`run ${runs[0].status}: ${runs[0].errorMessage}`);
      return performance.now() - started;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}
const firstRunMs = await runOnce();
const secondRunMs = await runOnce();

async function timed(p) {
  const ms = [];
  let last;
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    last = await api('GET', p);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const q = (f) => Math.round(ms[Math.min(ms.length - 1, Math.floor(f * ms.length))] * 10) / 10;
  return { medianMs: q(0.5), p95Ms: q(0.95), maxMs: Math.round(ms.at(-1) * 10) / 10, last };
}
const status = await timed(`/api/issues/${issue.id}/workspace`);
const diff = await timed(`/api/issues/${issue.id}/workspace/diff`);
await stopServer(server);
const result = {
  machine: info,
  files: FILES,
  requests: REQUESTS,
  firstRunMs: Math.round(firstRunMs),
  secondRunMs: Math.round(secondRunMs),
  cloneCreationMsApprox: Math.round(firstRunMs - secondRunMs),
  workspaceEndpoint: { medianMs: status.medianMs, p95Ms: status.p95Ms, maxMs: status.maxMs, files: status.last.files.length },
  diffEndpoint: { medianMs: diff.medianMs, p95Ms: diff.p95Ms, maxMs: diff.maxMs, bytes: diff.last.diff.length, truncated: diff.last.truncated },
};
console.log(JSON.stringify(result, null, 2));
console.log('written to', writeResult('workspace', result));
rmSync(home, { recursive: true, force: true });
rmSync(repo, { recursive: true, force: true });
