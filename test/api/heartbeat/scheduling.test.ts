import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, eventually, sleep, waitForRunId } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

const sql = <T = any>(query: string, ...params: unknown[]): T[] => t.core.database.sqlite.prepare(query).all(...params) as T[];
const runsOf = async (agentId: string): Promise<any[]> => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items;
const ended = (r: any) => !['queued', 'running'].includes(r.status);

describe('heartbeat scheduling', () => {
  it('coalesces 10 invokes during a run into exactly one follow-up run', async () => {
    const agent = await createFakeAgent(t, companyId, 'Busy', { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '1200' });
    expect((await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} })).status).toBe(202);
    const first = await eventually(async () => (await runsOf(agent.id)).find((r) => r.status === 'running'), 5000, 'the first run');
    const wakeIds: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
      expect(res.status).toBe(202);
      wakeIds.push(res.body.wakeRequestId);
    }
    // One run at a time: the wakes make one follow-up run, queued behind the running one.
    expect((await t.api('GET', `/api/heartbeat-runs/${first.id}`)).body.status).toBe('running');
    expect((await runsOf(agent.id)).map((r) => r.status).sort()).toEqual(['queued', 'running']);
    const settled = await eventually(async () => {
      const runs = await runsOf(agent.id);
      return runs.length >= 2 && runs.every(ended) ? runs : undefined;
    }, 10_000, 'both runs to end');
    // Nothing else is pending, so nothing more comes.
    await sleep(1200);
    const runs = await runsOf(agent.id);
    expect(runs).toHaveLength(2);
    expect(runs.every((r) => r.status === 'succeeded')).toBe(true);
    const second = settled.find((r) => r.id !== first.id);
    expect(second.reasons.length).toBeGreaterThanOrEqual(9);
    expect(second.reasons.map((r: any) => r.wakeRequestId).sort()).toEqual([...wakeIds].sort());
    expect(second).toMatchObject({ trigger: 'manual' });
    const wakes = sql<{ status: string; run_id: string }>(`SELECT status, run_id FROM wake_requests WHERE id IN (${wakeIds.map(() => '?').join(',')})`, ...wakeIds);
    expect(wakes.every((w) => w.status === 'consumed' && w.run_id === second.id)).toBe(true);
  });

  it.each([4, 2])('never runs more than maxConcurrentRuns (%i) at once, and all 10 succeed', async (cap) => {
    t.core.database.sqlite
      .prepare("INSERT INTO instance_settings (key, value, updated_at) VALUES ('maxConcurrentRuns', ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
      .run(JSON.stringify(cap), new Date().toISOString());
    const agents = [];
    for (let i = 0; i < 10; i++) agents.push(await createFakeAgent(t, companyId, `Agent ${i}`, { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '600' }));
    const invoked = await Promise.all(agents.map((a) => t.api('POST', `/api/agents/${a.id}/heartbeat/invoke`, { body: {} })));
    expect(invoked.map((r) => r.status)).toEqual(Array(10).fill(202));
    let maxRunning = 0;
    const deadline = Date.now() + 15_000;
    for (;;) {
      const running = (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?status=running`)).body.items.length;
      maxRunning = Math.max(maxRunning, running);
      const all = (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs`)).body.items;
      if (all.length === 10 && all.every(ended)) break;
      if (Date.now() > deadline) throw new Error(`runs did not end: ${all.map((r: any) => r.status).join(',')}`);
      await sleep(20);
    }
    expect(maxRunning).toBeLessThanOrEqual(cap);
    expect(maxRunning).toBe(cap);
    const runs = (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs`)).body.items;
    expect(runs.map((r: any) => r.status)).toEqual(Array(10).fill('succeeded'));
    // The recorded intervals agree: at no start were more than `cap` runs running.
    for (const r of runs) {
      const overlapping = runs.filter((o: any) => o.startedAt <= r.startedAt && o.finishedAt > r.startedAt);
      expect(overlapping.length).toBeLessThanOrEqual(cap);
    }
  });

  it('idle schedules start no process; a schedule with work does start a run', async () => {
    const agents = [];
    for (let i = 0; i < 10; i++) agents.push(await createFakeAgent(t, companyId, `Idle ${i}`, { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '50' }));
    for (const a of agents) {
      const res = await t.api('PUT', `/api/agents/${a.id}/heartbeat-settings`, { body: { intervalSec: 1, enabled: true } });
      expect(res.body).toMatchObject({ intervalSec: 1, enabled: true, skipWhenIdle: true });
    }
    // The issue speaks of 60 s; 5 s are five schedule periods of every agent.
    await sleep(5000);
    expect(sql('SELECT id FROM heartbeat_runs')).toEqual([]);
    const wakes = sql<{ agent_id: string; reason: string; status: string; skip_reason: string; created_at: string; processed_at: string }>(
      'SELECT agent_id, reason, status, skip_reason, created_at, processed_at FROM wake_requests',
    );
    // One idle record per agent, refreshed at every period rather than a new row each second.
    for (const a of agents) {
      const mine = wakes.filter((w) => w.agent_id === a.id);
      expect(mine).toHaveLength(1);
      expect(Date.parse(mine[0]!.processed_at) - Date.parse(mine[0]!.created_at)).toBeGreaterThanOrEqual(2000);
    }
    expect(wakes.every((w) => w.reason === 'schedule' && w.status === 'skipped' && w.skip_reason === 'nothing to do')).toBe(true);

    // Work for one agent, without an assignment wake of its own (skipped while it is paused).
    const busy = agents[0]!;
    await t.api('POST', `/api/agents/${busy.id}/pause`, {});
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Real work', status: 'todo', assigneeAgentId: busy.id } })).body;
    await eventually(() => (sql("SELECT id FROM wake_requests WHERE reason = 'assignment' AND status = 'skipped' AND skip_reason = 'the agent is paused' AND issue_id = ?", issue.id).length ? true : undefined), 3000, 'the assignment wake to be skipped');
    await t.api('POST', `/api/agents/${busy.id}/resume`, {});
    const run = await eventually(async () => (await runsOf(busy.id))[0], 3000, 'a scheduled run');
    expect(run.trigger).toBe('schedule');
    expect((await waitForRunId(t, run.id)).status).toBe('succeeded');
    for (const a of agents.slice(1)) expect(await runsOf(a.id)).toEqual([]);
  });
});
