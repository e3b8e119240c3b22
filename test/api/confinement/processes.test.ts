import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '@service/adapter-utils';
import { createCompany, startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { requireBuiltCli, spawnServe, stopProcess, type ServeProcess } from '../durability/serve-process.js';
import { eventually, fakeLines, procState, waitForRunId, waitGone } from '../heartbeat/helpers.js';
import { sandboxAvailable } from './sandbox.js';

const HOSTILE = path.resolve(import.meta.dirname, '../../fixtures/hostile-agent.mjs');
const TOKEN = 'hcb_confinement-processes-token';

let t: TestCore | undefined;
let server: ServeProcess | undefined;
const temps: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  await stopProcess(server);
  server = undefined;
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Live processes (host view) whose environment carries `needle`. */
function processesWith(needle: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(needle) && !['Z', null].includes(procState(Number(pid)));
      } catch {
        return false;
      }
    })
    .map(Number);
}

const hostileConfig = (tag: string, mode: 'exit' | 'hang', sandbox: boolean) => {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'hc-proc-cwd-'));
  temps.push(cwd);
  return { command: process.execPath, args: [HOSTILE], cwd, env: { HOSTILE_MODE: mode, HOSTILE_TAG: tag }, timeoutSec: 60, graceMs: 500, sandbox };
};

/** Just enough of TestCore over a served child process. */
function client(url: string) {
  return {
    url,
    boardToken: TOKEN,
    async api(method: string, urlPath: string, o: { body?: unknown } = {}) {
      const res = await fetch(url + urlPath, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
    },
  } as unknown as TestCore;
}

describe('every process a run starts is gone after it', () => {
  it('without the sandbox, a setsid grandchild holding stdout neither keeps the run running nor outlives it', async () => {
    t = await startCore();
    temps.push(t.home);
    const companyId = await createCompany(t);
    const tag = `tag-${randomUUID()}`;
    const agent = (await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Leaver', adapterType: 'process', adapterConfig: hostileConfig(tag, 'exit', false) } })).body;
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} })).status).toBe(202);
    const started = await eventually(async () => (await t!.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0], 5000, 'the run');
    // Well before the 60 s timeout: the run ended with its main process.
    const run = await waitForRunId(t, started.id, undefined, 15_000);
    expect(run).toMatchObject({ status: 'succeeded', exitCode: 0, timedOut: false });
    expect((await fakeLines(t, run.id)).map((l) => l.type)).toContain('bye');
    expect(processesWith(tag)).toEqual([]);
  });

  it('a restart ends what a crashed instance left behind, but never a process that reuses a recorded pid', async () => {
    const home = tempHome('hc-proc-restart-');
    temps.push(home);
    t = await startCore({ home });
    const companyId = await createCompany(t);
    const agent = (await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Ghost', adapterType: 'process', adapterConfig: hostileConfig('unused', 'exit', false) } })).body;
    // Two live processes: one recorded with its true start time (a leftover of the crashed run),
    // one whose pid is recorded with another start time (the OS gave the pid to something else).
    const leftover = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    const stranger = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
    children.push(leftover, stranger);
    const processes = [
      { pid: leftover.pid!, startTime: processStartTime(leftover.pid!) },
      { pid: stranger.pid!, startTime: 'linux:1' },
    ];
    expect(processes[0]!.startTime).toMatch(/^linux:\d+$/);
    const runId = randomUUID();
    const now = new Date().toISOString();
    t.core.database.sqlite
      .prepare("INSERT INTO heartbeat_runs (id, company_id, agent_id, status, trigger, reasons, adapter_type, pid, processes, queued_at, started_at) VALUES (?, ?, ?, 'running', 'manual', '[]', 'process', ?, ?, ?, ?)")
      .run(runId, companyId, agent.id, leftover.pid, JSON.stringify(processes), now, now);
    await t.close();
    t = await startCore({ home });
    expect((await t.api('GET', `/api/heartbeat-runs/${runId}`)).body).toMatchObject({ status: 'lost' });
    expect([null, 'Z']).toContain(await waitGone(leftover.pid!));
    expect(['S', 'R']).toContain(procState(stranger.pid!));
  });

  it.each([true, false])('a server killed mid-run leaves no process of the run once restarted, setsid grandchild deaf to SIGTERM included (sandbox: %s)', async (sandbox) => {
    if (sandbox && !sandboxAvailable()) return;
    requireBuiltCli();
    const home = tempHome('hc-proc-crash-');
    temps.push(home);
    server = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: TOKEN } });
    let c = client(server.url);
    const companyId = (await c.api('POST', '/api/companies', { body: { name: 'Acme' } })).body.id;
    const tag = `tag-${randomUUID()}`;
    const agent = (await c.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Sticky', adapterType: 'process', adapterConfig: hostileConfig(tag, 'hang', sandbox) } })).body;
    expect((await c.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} })).status).toBe(202);
    const run = await eventually(async () => (await c.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0], 5000, 'the run');
    await eventually(async () => ((await fakeLines(c, run.id)).some((l) => l.type === 'spawned') ? true : undefined), 10_000, 'the grandchild');
    expect(processesWith(tag).length).toBeGreaterThanOrEqual(2);

    server.child.kill('SIGKILL');
    await server.exited;
    server = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: TOKEN } });
    c = client(server.url);
    expect((await c.api('GET', `/api/heartbeat-runs/${run.id}`)).body).toMatchObject({ status: 'lost' });
    await eventually(() => (processesWith(tag).length === 0 ? true : undefined), 3000, 'no process of the run');
  }, 60_000);
});
