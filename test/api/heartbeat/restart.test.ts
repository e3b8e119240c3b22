import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempHome, type TestCore } from '../../helpers/core.js';
import { requireBuiltCli, spawnServe, stopProcess, type ServeProcess } from '../durability/serve-process.js';
import { FAKE_AGENT, eventually, fakeLines, procState, waitForRunId, waitGone } from './helpers.js';

const TOKEN = 'hcb_heartbeat-restart-token';

let home: string;
let server: ServeProcess | undefined;
let orphan: number | undefined;
let strays: number[] = [];
beforeEach(() => {
  requireBuiltCli();
  home = tempHome('headcount-hb-restart-');
});
afterEach(async () => {
  await stopProcess(server);
  // Should the test fail half way, do not leave the fake agent behind.
  if (orphan && procState(orphan) && procState(orphan) !== 'Z') process.kill(-orphan, 'SIGKILL');
  for (const pid of strays) if (procState(pid) && procState(pid) !== 'Z') process.kill(pid, 'SIGKILL');
  orphan = undefined;
  strays = [];
  rmSync(home, { recursive: true, force: true });
});

/** Just enough of TestCore (api, url, token) over a served child process for the helpers. */
function client(url: string): TestCore {
  const api = async (method: string, urlPath: string, o: { body?: unknown } = {}) => {
    const res = await fetch(url + urlPath, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text };
  };
  return { api, url, boardToken: TOKEN } as unknown as TestCore;
}

describe('server killed mid-run', () => {
  it('marks the run lost, kills its orphaned process group at restart, and lets the next heartbeat adopt the issue', async () => {
    server = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: TOKEN } });
    let t = client(server.url);
    const companyId = (await t.api('POST', '/api/companies', { body: { name: 'Acme' } })).body.id;
    const adapterConfig = (mode: string) => ({ command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: mode }, timeoutSec: 60, graceMs: 500, sandbox: false });
    const agent = (await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Worker', adapterType: 'process', adapterConfig: adapterConfig('checkout-then-hang') } })).body;
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Survive a crash', status: 'todo' } })).body;
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } })).status).toBe(202);

    const run = await eventually(async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0], 5000, 'the run');
    const lines = await eventually(async () => {
      const l = await fakeLines(t, run.id);
      return l.some((x) => x.type === 'hanging') ? l : undefined;
    }, 8000, 'the fake agent to check out and hang');
    expect(lines.find((l) => l.type === 'checkout')).toMatchObject({ status: 200 });
    const running = (await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body;
    expect(running).toMatchObject({ status: 'running', pid: expect.any(Number) });
    orphan = running.pid as number;
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body).toMatchObject({ status: 'in_progress', checkoutRunId: run.id });

    server.child.kill('SIGKILL');
    await server.exited;
    // The agent's own process group outlives the server (it is detached): an orphan, for now.
    expect(['S', 'R']).toContain(procState(orphan));

    server = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: TOKEN } });
    t = client(server.url);
    const lost = (await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body;
    expect(lost).toMatchObject({ status: 'lost', errorCode: 'server_restarted', finishedAt: expect.any(String) });
    expect([null, 'Z']).toContain(await waitGone(orphan));
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('idle');
    // What the run printed before the crash is still there.
    expect((await fakeLines(t, run.id)).map((l) => l.type)).toContain('hanging');

    // The next heartbeat adopts the lock the lost run left (in_progress is an expected status).
    expect((await t.api('PATCH', `/api/agents/${agent.id}`, { body: { adapterConfig: adapterConfig('work') } })).status).toBe(200);
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } })).status).toBe(202);
    const next = await eventually(async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items.find((r: any) => r.id !== run.id), 5000, 'the next run');
    const done = await waitForRunId(t, next.id);
    expect(done).toMatchObject({ status: 'succeeded', taskIssueId: issue.id });
    expect((await fakeLines(t, next.id)).find((l) => l.type === 'checkout')).toMatchObject({ status: 200 });
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body).toMatchObject({ status: 'done' });
  });

  it('sweeps grandchildren of a lost run even when the agent process itself already died', async () => {
    server = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: TOKEN } });
    let t = client(server.url);
    const companyId = (await t.api('POST', '/api/companies', { body: { name: 'Acme' } })).body.id;
    const adapterConfig = { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'grandchildren', FAKE_TICK_MS: '50' }, timeoutSec: 60, graceMs: 500, sandbox: false };
    const agent = (await t.api('POST', `/api/companies/${companyId}/agents`, { body: { name: 'Forker', adapterType: 'process', adapterConfig } })).body;
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} })).status).toBe(202);
    const run = await eventually(async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0], 5000, 'the run');
    const spawned = await eventually(async () => {
      const l = (await fakeLines(t, run.id)).filter((x) => x.type === 'spawned');
      return l.length === 2 ? l.map((x) => x.pid as number) : undefined;
    }, 8000, 'the grandchildren');
    orphan = (await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body.pid as number;
    strays = spawned;

    server.child.kill('SIGKILL');
    await server.exited;
    // Its next tick hits the closed pipe: the agent process dies, its grandchildren do not.
    expect([null, 'Z']).toContain(await waitGone(orphan, 3000));
    for (const pid of spawned) expect(['S', 'R']).toContain(procState(pid));

    server = await spawnServe(home, { env: { SERVICE_BOARD_TOKEN: TOKEN } });
    t = client(server.url);
    expect((await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body).toMatchObject({ status: 'lost' });
    for (const pid of spawned) expect([null, 'Z']).toContain(await waitGone(pid));
  });
});
