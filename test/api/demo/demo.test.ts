import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type TestCore } from '../../helpers/core.js';
import { createClient } from '../../../main/cli/client.js';
import { DEMO_BUDGET_CENTS, demoPace, setupDemo, type DemoResult } from '../../../main/demo/setup.js';

// Fast enough for a test, slow enough that every heartbeat is observable while it runs.
const PACE = 0.02;

let t: TestCore;
beforeAll(async () => {
  t = await startCore();
});
afterAll(async () => {
  await t.close();
});

async function transcript(runId: string): Promise<string> {
  let offset = 0;
  let text = '';
  for (;;) {
    const page = await t.api('GET', `/api/heartbeat-runs/${runId}/log?offset=${offset}`);
    text += page.body.records.map((r: any) => r.data).join('');
    if (page.body.nextOffset === offset) return text;
    offset = page.body.nextOffset;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns something (the test's own timeout bounds the wait). */
async function until<T>(probe: () => Promise<T | undefined | null | false>, everyMs = 50): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await sleep(everyMs);
  }
}

const runsOf = async (companyId: string): Promise<any[]> => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?limit=200`)).body.items;
const activityOf = async (companyId: string): Promise<any[]> => (await t.api('GET', `/api/companies/${companyId}/activity?limit=200`)).body.items.slice().reverse();

describe('the demo company', () => {
  let demo: DemoResult;

  it('plays its whole story through real heartbeats, in order, waiting on the board where it must', async () => {
    const lines: string[] = [];
    demo = await setupDemo(createClient({ url: t.url, token: t.boardToken }), { pace: PACE, log: (l) => lines.push(l) });
    expect(demo.company.name).toBe('Demo Co');
    expect(demo.agents.map((a) => a.role)).toEqual(['ceo', 'engineer']);
    expect(lines.join('\n')).toContain('Created company "Demo Co"');
    const company = (await t.api('GET', `/api/companies/${demo.company.id}`)).body;
    expect(company.budgetMonthlyCents).toBe(DEMO_BUDGET_CENTS);
    const [ava, ben] = demo.agents;
    const ceoIssue = demo.issues[0]!;

    // A transcript has content while its run is still running: the board shows it live.
    const live = await until(async () => {
      const running = (await runsOf(demo.company.id)).find((r) => r.status === 'running');
      if (!running) return null;
      const text = await transcript(running.id);
      const still = (await t.api('GET', `/api/heartbeat-runs/${running.id}`)).body.status === 'running';
      return still && text.includes("Hello, I'm") ? text : null;
    }, 10);
    expect(live).toMatch(/Hello, I'm (Ava|Ben|Dana)/);

    // The board answers the question but never decides the strategy: the CEO goes ahead after its patience window.
    const question = await until(async () => (await t.api('GET', `/api/issues/${ceoIssue.id}/interactions`)).body.find((i: any) => i.kind === 'ask_user_questions'));
    expect(question).toMatchObject({ status: 'pending', title: 'Who should Demo Co serve first?' });
    expect((await t.api('POST', `/api/issues/${ceoIssue.id}/interactions/${question.id}/respond`, { body: { answers: { audience: 'agencies' } } })).status).toBe(200);

    // The hire waits for the board; approving it activates Dana, who then gets work.
    const hire = await until(async () => (await t.api('GET', `/api/companies/${demo.company.id}/approvals`)).body.find((a: any) => a.type === 'hire_agent'));
    expect(hire).toMatchObject({ status: 'pending', requestedByAgentId: ava!.id, payload: { name: 'Dana', role: 'engineer' } });
    expect((await t.api('POST', `/api/approvals/${hire.id}/approve`, { body: {} })).status).toBe(200);

    // The story ends with the CEO closing its issue, and its last heartbeat ending.
    await until(
      async () => (await t.api('GET', `/api/issues/${ceoIssue.id}`)).body.status === 'done' && (await runsOf(demo.company.id)).every((r) => r.finishedAt),
      100,
    );

    const approvals = (await t.api('GET', `/api/companies/${demo.company.id}/approvals`)).body;
    const strategy = approvals.find((a: any) => a.type === 'approve_ceo_strategy');
    expect(strategy).toMatchObject({ status: 'pending', requestedByAgentId: ava!.id, payload: { version: 1, title: 'Demo Co: the first month' } });
    expect(strategy.payload.strategyMarkdown).toContain('## Plan');

    const issues = (await t.api('GET', `/api/companies/${demo.company.id}/issues?limit=200`)).body.items;
    const team = issues.filter((i: any) => i.id !== ceoIssue.id);
    expect(team.map((i: any) => i.title).sort()).toEqual(['Add a pricing section', 'Connect sign-ups to Slack', 'Put up the landing page']);
    expect(team.every((i: any) => i.status === 'done')).toBe(true);
    // The founder's answer reached the work: the landing page speaks to agencies.
    expect(team.find((i: any) => i.title === 'Put up the landing page').description).toContain('agencies');
    const dana = (await t.api('GET', `/api/agents/${hire.hireAgentId}`)).body;
    expect(dana).toMatchObject({ name: 'Dana', status: expect.not.stringMatching(/draft|terminated/) });

    for (const issue of team) {
      const detail = (await t.api('GET', `/api/issues/${issue.id}/documents/notes`)).body;
      expect(detail.body).toContain('implementation notes');
      const comments = (await t.api('GET', `/api/issues/${issue.id}/comments`)).body;
      expect(comments.some((c: any) => c.authorAgentId === issue.assigneeAgentId && /on it|Retrying/.test(c.body))).toBe(true);
    }
    expect((await t.api('GET', `/api/issues/${ceoIssue.id}/documents/strategy`)).body.body).toContain('# Demo Co: the first month');
    const ceoComments = (await t.api('GET', `/api/issues/${ceoIssue.id}/comments`)).body.map((c: any) => c.body);
    expect(ceoComments.some((b: string) => b.startsWith('Thanks for the answer: we speak to agencies'))).toBe(true);

    // One failed run of Ben, then his retry (woken by the CEO's mention) succeeded.
    const runs = (await runsOf(demo.company.id)).reverse();
    const failed = runs.filter((r) => r.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ agentId: ben!.id, exitCode: 1 });
    expect(await transcript(failed[0].id)).toContain('DATABASE_URL is not set');
    const retry = runs.find((r) => r.agentId === ben!.id && r.queuedAt > failed[0].queuedAt);
    expect(retry).toMatchObject({ status: 'succeeded', trigger: 'mention' });
    expect(await transcript(retry.id)).toContain('Retrying after my failed heartbeat');
    expect(runs.filter((r) => r.status !== 'failed' && r.status !== 'succeeded').map((r) => `${r.status} ${r.trigger} ${r.errorMessage}`)).toEqual([]);
    // The CEO ran several heartbeats on its schedule, waiting on the board in between.
    expect(runs.filter((r) => r.agentId === ava!.id && r.trigger === 'schedule').length).toBeGreaterThanOrEqual(2);

    // Costs crossed the company's 80% warning without reaching the hard stop.
    const summary = (await t.api('GET', `/api/companies/${demo.company.id}/costs/summary`)).body;
    expect(summary.status).toBe('warning');
    expect(summary.spentCents).toBeGreaterThanOrEqual(DEMO_BUDGET_CENTS * 0.8);
    expect(summary.spentCents).toBeLessThan(DEMO_BUDGET_CENTS);

    // The order of the story, as the activity log recorded it.
    const activity = await activityOf(demo.company.id);
    const at = (pred: (a: any) => boolean, what: string) => {
      const i = activity.findIndex(pred);
      expect(i, `${what} in ${activity.map((a) => a.action).join(', ')}`).toBeGreaterThanOrEqual(0);
      return i;
    };
    const order = [
      at((a) => a.entityType === 'approval' && a.entityId === strategy.id, 'strategy approval'),
      at((a) => a.action === 'issue.interaction_created', 'question'),
      at((a) => a.entityType === 'approval' && a.entityId === hire.id, 'hire approval'),
      at((a) => a.action === 'issue.checked_out' && a.actorId === ben!.id, "Ben's checkout"),
      at((a) => a.action === 'run.failed', 'the failed run'),
      at((a) => a.action === 'budget.warning', 'budget warning'),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(at((a) => a.action === 'run.succeeded' && a.entityId === retry.id, 'the retry')).toBeGreaterThan(order[4]!);
    expect(activity.filter((a) => a.action === 'budget.warning')).toHaveLength(1);
  }, 120_000);

  it('stops when the company is paused or archived: the heartbeat under way ends, and no new one starts', async () => {
    for (const action of ['pause', 'archive'] as const) {
      const d = await setupDemo(createClient({ url: t.url, token: t.boardToken }), { pace: PACE });
      const running = await until(async () => (await runsOf(d.company.id)).find((r) => r.status === 'running'), 10);
      expect((await t.api('POST', `/api/companies/${d.company.id}/${action}`)).status).toBe(200);
      const finished = await until(async () => {
        const run = (await t.api('GET', `/api/heartbeat-runs/${running.id}`)).body;
        return run.finishedAt ? run : null;
      });
      expect(finished.status).toBe('succeeded');
      expect(await transcript(running.id)).toContain(`The company is ${action === 'pause' ? 'paused' : 'archived'}; stopping here.`);
      const before = { runs: (await runsOf(d.company.id)).length, activity: (await activityOf(d.company.id)).length };
      // Several of the CEO's schedule intervals pass (1 s each at this pace): nothing happens.
      await sleep(3_500);
      expect((await runsOf(d.company.id)).length).toBe(before.runs);
      expect((await activityOf(d.company.id)).length).toBe(before.activity);
    }
  }, 60_000);

  it('finishes without the founder, and a hire approved afterwards still gets its first task', async () => {
    const d = await setupDemo(createClient({ url: t.url, token: t.boardToken }), { pace: PACE });
    const ceoIssue = d.issues[0]!;
    await until(async () => (await t.api('GET', `/api/issues/${ceoIssue.id}`)).body.status === 'done' && (await runsOf(d.company.id)).every((r) => r.finishedAt), 100);
    const approvals = (await t.api('GET', `/api/companies/${d.company.id}/approvals`)).body;
    expect(approvals.map((a: any) => `${a.type} ${a.status}`).sort()).toEqual(['approve_ceo_strategy pending', 'hire_agent pending']);
    const question = (await t.api('GET', `/api/issues/${ceoIssue.id}/interactions`)).body[0];
    expect(question.status).toBe('pending');
    const issues = (await t.api('GET', `/api/companies/${d.company.id}/issues?limit=200`)).body.items;
    expect(issues.map((i: any) => `${i.title}: ${i.status}`).sort()).toEqual(['Add a pricing section: done', 'Put up the landing page: done', 'Set the direction for Demo Co: done']);
    // Without an answer the CEO assumed startups.
    expect(issues.find((i: any) => i.title === 'Put up the landing page').description).toContain('startups');

    const hire = approvals.find((a: any) => a.type === 'hire_agent');
    expect((await t.api('POST', `/api/approvals/${hire.id}/approve`, { body: {} })).status).toBe(200);
    const slack = await until(async () => {
      const items = (await t.api('GET', `/api/companies/${d.company.id}/issues?assigneeAgentId=${hire.hireAgentId}`)).body.items;
      return items[0]?.status === 'done' ? items[0] : null;
    }, 100);
    expect(slack.title).toBe('Connect sign-ups to Slack');
  }, 60_000);

  it('takes its pace from the option, else HEADCOUNT_DEMO_PACE, else 1', () => {
    expect(demoPace(0.5, {})).toBe(0.5);
    expect(demoPace(undefined, { HEADCOUNT_DEMO_PACE: '0.01' })).toBe(0.01);
    expect(demoPace(undefined, {})).toBe(1);
    expect(demoPace(undefined, { HEADCOUNT_DEMO_PACE: 'fast' })).toBe(1);
    expect(demoPace(-1, {})).toBe(1);
  });

  it('POST /api/demo starts the next "Demo Co" and answers with a one-time board sign-in link', async () => {
    const res = await t.api('POST', '/api/demo', { body: { invoke: false, pace: PACE } });
    expect(res.status).toBe(201);
    expect(res.body.company.name).toBe('Demo Co 5');
    expect(res.body.boardUrl).toMatch(new RegExp(`^${t.url.replace(/[.]/g, '\\.')}/#/login\\?code=.+`));
    const code = new URL(res.body.boardUrl.replace('#/login', 'login')).searchParams.get('code');
    const login = await t.api('POST', '/api/board/login', { body: { code }, token: null });
    expect(login.status).toBe(200);
    // invoke: false leaves the story unstarted: no run.
    expect(await runsOf(res.body.company.id)).toEqual([]);
  });

  it('`headcount demo` prints the board link, not API URLs', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'headcount-demo-cli-'));
    writeFileSync(path.join(home, 'board-token'), t.boardToken + '\n', { mode: 0o600 });
    try {
      const cli = path.resolve(import.meta.dirname, '../../../dist/main/cli/headcount.bundle.mjs');
      const child = spawn(process.execPath, [cli, '--home', home, 'demo', '--url', t.url, '--pace', String(PACE)], { env: { ...process.env, SERVICE_BOARD_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code, out + err).toBe(0);
      expect(out).toContain('Started "Demo Co 6" with Ava and Ben.');
      expect(out).toMatch(new RegExp(`^board: ${t.url.replace(/[.]/g, '\\.')}/#/login\\?code=\\S+$`, 'm'));
      expect(out).not.toContain('/api/');
      const company = (await t.api('GET', '/api/companies')).body.find((c: any) => c.name === 'Demo Co 6');
      await t.api('POST', `/api/companies/${company.id}/archive`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
