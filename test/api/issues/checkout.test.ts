import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { checkout, createIssue, rows } from './helpers.js';
import type { RunLookup } from '../../../main/core/heartbeat/run-lookup.js';

let t: TestCore;
let companyId: string;
let agents: { id: string; key: string }[];
const activeRuns = new Set<string>();
/** Runs the test pretends the engine knows: `run-<agent index>-...` style ids map to their agent. */
const runAgents = new Map<string, string>();
const runs: RunLookup = {
  isActive: (id) => activeRuns.has(id),
  activeRunAgent: (id) => runAgents.get(id) ?? null,
  cancelRunsOf: () => {},
};

async function hire(n: number) {
  const out: { id: string; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const agent = await createAgent(t, companyId, { name: `Agent ${out.length + agents.length}` });
    out.push({ id: agent.id, key: await createAgentKey(t, agent.id) });
  }
  agents.push(...out);
  return out;
}

/** Checkout as an agent; the run id is registered as that agent's, as the engine would know it. */
function claim(on: TestCore, issue: string, who: { id: string; key: string }, body: Record<string, unknown>, runId?: string) {
  if (runId) runAgents.set(runId, who.id);
  return checkout(on, issue, who.key, body, runId);
}

beforeEach(async () => {
  activeRuns.clear();
  runAgents.clear();
  t = await startCore({ runs });
  companyId = await createCompany(t);
  agents = [];
});
afterEach(async () => {
  await t.close();
});

describe('checkout', () => {
  it('claims, assigns, starts and is idempotent for the owner', async () => {
    const [a] = await hire(1);
    const issue = await createIssue(t, companyId, { status: 'todo' });
    const first = await claim(t, issue.id, a!, { expectedStatuses: ['todo'] }, 'run-1');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'in_progress', assigneeAgentId: a!.id, checkoutAgentId: a!.id, checkoutRunId: 'run-1' });
    expect(first.body.started_at).toEqual(expect.any(String));
    const again = await claim(t, issue.id, a!, { expectedStatuses: ['todo'] }, 'run-1');
    expect(again.status).toBe(200);
    expect(again.body.checkedOutAt).toBe(first.body.checkedOutAt);
    expect(rows(t, "SELECT count(*) AS n FROM activity WHERE action = 'issue.checked_out'")[0].n).toBe(1);
  });

  it('refuses another agent with a 409 that names the owner and says not to retry', async () => {
    const [a, b] = await hire(2);
    const issue = await createIssue(t, companyId, { status: 'todo' });
    await claim(t, issue.id, a!, { expectedStatuses: ['todo'] }, 'run-a');
    const before = t.snapshot();
    const lost = await claim(t, issue.id, b!, { expectedStatuses: ['todo', 'in_progress'] }, 'run-b');
    expect(lost.status).toBe(409);
    expect(lost.body.code).toBe('checkout_conflict');
    expect(lost.body.error).toMatch(/Do not retry/);
    expect(lost.body.details).toMatchObject({ ownerAgentId: a!.id, ownerAgentName: 'Agent 0', ownerRunId: 'run-a', retry: false });
    expect(t.snapshot()).toEqual(before);
  });

  it('refuses a status outside expectedStatuses, a runId in the body, and foreign agents', async () => {
    const [a] = await hire(1);
    const issue = await createIssue(t, companyId, { status: 'backlog' });
    const other = await createAgent(t, companyId, { name: 'Other' });
    const before = t.snapshot();
    const wrong = await claim(t, issue.id, a!, { expectedStatuses: ['todo'] });
    expect(wrong.status).toBe(409);
    expect(wrong.body).toMatchObject({ code: 'unexpected_status', details: { status: 'backlog', retry: false } });
    const body = await claim(t, issue.id, a!, { expectedStatuses: ['backlog'], runId: 'r' });
    expect(body.status).toBe(400);
    expect(body.body.error).toMatch(/^body\.runId: .*X-Service-Run-Id/);
    const terminal = await claim(t, issue.id, a!, { expectedStatuses: ['done'] });
    expect(terminal.status).toBe(400);
    const forOther = await claim(t, issue.id, a!, { agentId: other.id, expectedStatuses: ['backlog'] });
    expect(forOther.status).toBe(403);
    const boardWithoutAgent = await t.api('POST', `/api/issues/${issue.id}/checkout`, { body: { expectedStatuses: ['backlog'] } });
    expect(boardWithoutAgent.status).toBe(400);
    expect(t.snapshot().__total_changes).toBe(before.__total_changes);
  });

  it('adopts the lock of a crashed run only with in_progress listed', async () => {
    const [a] = await hire(1);
    const issue = await createIssue(t, companyId, { status: 'todo' });
    activeRuns.add('run-1');
    await claim(t, issue.id, a!, { expectedStatuses: ['todo'] }, 'run-1');
    const whileActive = await claim(t, issue.id, a!, { expectedStatuses: ['in_progress'] }, 'run-2');
    expect(whileActive.status).toBe(409);
    activeRuns.delete('run-1');
    const withoutInProgress = await claim(t, issue.id, a!, { expectedStatuses: ['todo'] }, 'run-2');
    expect(withoutInProgress.status).toBe(409);
    expect(withoutInProgress.body.error).toMatch(/in_progress/);
    const adopted = await claim(t, issue.id, a!, { expectedStatuses: ['in_progress'] }, 'run-2');
    expect(adopted.status).toBe(200);
    expect(adopted.body.checkoutRunId).toBe('run-2');
    expect(rows(t, "SELECT action FROM activity WHERE action LIKE 'issue.checkout%'").map((r) => r.action)).toEqual(['issue.checkout_adopted']);
  });

  it('moves to in_progress only for the holder, and releases back to todo', async () => {
    const [a, b] = await hire(2);
    const issue = await createIssue(t, companyId, { status: 'todo', assigneeAgentId: a!.id });
    expect((await t.api('PATCH', `/api/issues/${issue.id}`, { token: a!.key, body: { status: 'in_progress' } })).status).toBe(409);
    await claim(t, issue.id, a!, { expectedStatuses: ['todo'] });
    expect((await t.api('PATCH', `/api/issues/${issue.id}`, { token: b!.key, body: { status: 'blocked' } })).body.code).toBe('checked_out_by_another');
    const blocked = await t.api('PATCH', `/api/issues/${issue.id}`, { token: a!.key, body: { status: 'blocked' } });
    expect(blocked.body).toMatchObject({ status: 'blocked', checkoutAgentId: a!.id });
    const back = await t.api('PATCH', `/api/issues/${issue.id}`, { token: a!.key, body: { status: 'in_progress' } });
    expect(back.body.status).toBe('in_progress');
    expect((await t.api('POST', `/api/issues/${issue.id}/release`, { token: b!.key })).body.code).toBe('not_checkout_owner');
    const released = await t.api('POST', `/api/issues/${issue.id}/release`, { token: a!.key });
    expect(released.body).toMatchObject({ status: 'todo', checkoutAgentId: null, assigneeAgentId: a!.id });
    const noop = await t.api('POST', `/api/issues/${issue.id}/release`);
    expect(noop.status).toBe(200);
  });

  it('finds the issue by its identifier too; a deleted or foreign issue is a 404 that writes nothing; a free issue releases as it is', async () => {
    const [a] = await hire(1);
    const issue = await createIssue(t, companyId, { status: 'todo' });
    const byIdentifier = await claim(t, issue.identifier.toLowerCase(), a!, { expectedStatuses: ['todo'] });
    expect(byIdentifier.body).toMatchObject({ id: issue.id, status: 'in_progress', checkoutAgentId: a!.id });
    const released = await t.api('POST', `/api/issues/${issue.identifier}/release`, { token: a!.key });
    expect(released.body).toMatchObject({ id: issue.id, status: 'todo', checkoutAgentId: null });
    // Nobody holds it now: the answer is the issue as stored, and nothing is written.
    const before = t.snapshot();
    const free = await t.api('POST', `/api/issues/${issue.id}/release`, { token: a!.key });
    expect(free.status).toBe(200);
    const { body: stored } = await t.api('GET', `/api/issues/${issue.id}`);
    expect(stored).toMatchObject(free.body);
    expect(t.snapshot()).toEqual(before);

    const otherCompany = await createCompany(t, 'Other Co');
    const stranger = await createAgent(t, otherCompany, { name: 'Stranger' });
    const strangerKey = await createAgentKey(t, stranger.id);
    const gone = await createIssue(t, companyId, { status: 'todo' });
    expect((await t.api('DELETE', `/api/issues/${gone.id}`)).status).toBe(204);
    const quiet = t.snapshot();
    for (const [ref, token] of [[issue.id, strangerKey], [gone.id, a!.key], [gone.identifier, a!.key]] as const) {
      expect((await checkout(t, ref, token, { expectedStatuses: ['todo'] })).status, ref).toBe(404);
      expect((await t.api('POST', `/api/issues/${ref}/release`, { token })).status, ref).toBe(404);
    }
    expect(t.snapshot()).toEqual(quiet);
  });

  it('done ends the checkout', async () => {
    const [a] = await hire(1);
    const issue = await createIssue(t, companyId, { status: 'todo' });
    await claim(t, issue.id, a!, { expectedStatuses: ['todo'] });
    const done = await t.api('PATCH', `/api/issues/${issue.id}`, { token: a!.key, body: { status: 'done' } });
    expect(done.body).toMatchObject({ status: 'done', checkoutAgentId: null, checkoutRunId: null });
  });
});

describe('checkout under concurrency (real database file)', () => {
  it('20 agents racing for one issue: exactly one wins, 19 get 409, 50 times', async () => {
    const racers = await hire(20);
    for (let round = 0; round < 50; round++) {
      const issue = await createIssue(t, companyId, { status: 'todo', title: `race ${round}` });
      const results = await Promise.all(racers.map((r, i) => claim(t, issue.id, r!, { expectedStatuses: ['todo'] }, `run-${round}-${i}`)));
      const wins = results.filter((r) => r.status === 200);
      expect(wins).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === 'checkout_conflict')).toHaveLength(19);
      const row = rows(t, 'SELECT checkout_agent_id FROM issues WHERE id = ?', issue.id)[0];
      expect(row.checkout_agent_id).toBe(wins[0]!.body.checkoutAgentId);
    }
  });

  it('200 agents over 50 issues through two servers on one database: never two owners', async () => {
    const racers = await hire(200);
    const issues: any[] = [];
    for (let i = 0; i < 50; i++) issues.push(await createIssue(t, companyId, { status: 'todo', title: `pool ${i}` }));
    // A second core on the same home: two processes' worth of connections to one SQLite file.
    const second = await startCore({ home: t.home, runs });
    try {
      const attempts = racers.flatMap((r, i) =>
        [0, 1, 2].map((k) => {
          const issue = issues[(i * 7 + k * 13) % issues.length]!;
          const server = (i + k) % 2 === 0 ? t : second;
          return claim(server, issue.id, r, { expectedStatuses: ['todo'] }, `run-${i}-${k}`).then((res) => ({ res, agent: r.id, issue: issue.id }));
        }),
      );
      const results = await Promise.all(attempts);
      expect(results.every((r) => r.res.status === 200 || r.res.status === 409)).toBe(true);
      const winners = new Map<string, Set<string>>();
      for (const r of results.filter((x) => x.res.status === 200)) {
        winners.set(r.issue, (winners.get(r.issue) ?? new Set()).add(r.agent));
      }
      for (const [, owners] of winners) expect(owners.size).toBe(1);
      const stored = rows(t, 'SELECT id, checkout_agent_id FROM issues WHERE checkout_agent_id IS NOT NULL');
      expect(stored).toHaveLength(winners.size);
      for (const s of stored) expect([...winners.get(s.id)!]).toEqual([s.checkout_agent_id]);
    } finally {
      await second.close();
    }
  });
});
