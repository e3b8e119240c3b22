import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot, FAKE_AGENT } from './fixtures.js';
import type { Board } from './fixtures.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** The usual test screenshot, plus a copy for the README under docs/screenshots. */
async function docShot(page: Page, name: string): Promise<void> {
  await shot(page, name);
  mkdirSync(DOCS, { recursive: true });
  await page.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: true });
}

async function setup(board: Board) {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Globex' });
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, {
    name: 'Tess',
    role: 'engineer',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'fail' }, timeoutSec: 30 },
  });
  return { companyId: company.id, agentId: agent.id };
}

test('routines: create a schedule and a webhook routine, next fire times in words, fire now, history, pause', async ({ signedIn: page, board }) => {
  const { companyId, agentId } = await setup(board);
  await board.api('POST', `/api/companies/${companyId}/routines`, { title: 'Weekly report', assigneeAgentId: agentId, trigger: { kind: 'api' }, concurrency: 'always' });
  await page.goto(`${board.url}/#/routines`);
  await page.getByRole('button', { name: 'New routine' }).first().click();
  await page.getByLabel('Issue title *').fill('Triage bug reports of {{date}}');
  await page.getByLabel('Assignee *').selectOption(agentId);
  await page.getByLabel('Cron (5 fields)').fill('0 9 * * 1-5');
  await expect(page.getByText('At 09:00, Monday through Friday', { exact: true })).toBeVisible();
  await page.getByLabel('Timezone (IANA)').fill('Europe/Berlin');
  await page.getByRole('button', { name: 'Create routine' }).click();
  const times = page.getByRole('list', { name: /Next fire times of Triage/ });
  await expect(times.getByRole('listitem')).toHaveCount(5);

  await page.getByRole('button', { name: 'New routine' }).first().click();
  await page.getByLabel('Issue title *').fill('Bug {{body.id}} from the tracker');
  await page.getByLabel('Assignee *').selectOption(agentId);
  await page.getByLabel('Trigger').selectOption('webhook');
  await page.getByRole('button', { name: 'Create routine' }).click();
  const url = page.getByLabel('Webhook URL');
  await expect(url).toContainText('/api/routine-hooks/hcr_');
  const hook = (await url.textContent())!;
  const fired = await fetch(hook, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 42 }) });
  expect(fired.status).toBe(201);

  // Fire now, then the history shows the firing with its issue.
  const weekly = page.locator('.card', { hasText: 'Weekly report' });
  await weekly.getByRole('button', { name: 'Fire now' }).click();
  await expect(page.getByText(/Fired: [A-Z]+-\d+/)).toBeVisible();
  await weekly.getByRole('button', { name: 'Firing history' }).click();
  await expect(weekly.getByRole('table', { name: 'Firings of Weekly report' })).toContainText('issue created');
  await docShot(page, '40-routines');

  const triage = page.locator('.card', { hasText: 'Triage bug reports' });
  await triage.getByRole('button', { name: 'Pause' }).click();
  await expect(triage.getByText('paused', { exact: true })).toBeVisible();
  await expect(triage.getByText('Paused: no upcoming firings.')).toBeVisible();
  const issues = await board.api<{ items: { title: string }[] }>('GET', `/api/companies/${companyId}/issues`);
  expect(issues.items.map((i) => i.title)).toEqual(expect.arrayContaining(['Weekly report', 'Bug 42 from the tracker']));
});

test('an issue with blockers and labels; the list marks it blocked and filters by label', async ({ signedIn: page, board }) => {
  const { companyId } = await setup(board);
  const bug = await board.api<{ id: string }>('POST', `/api/companies/${companyId}/labels`, { name: 'bug', color: '#d93f0b' });
  const api = await board.api<{ id: string }>('POST', `/api/companies/${companyId}/labels`, { name: 'backend', color: '#1d76db' });
  const schema = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${companyId}/issues`, { title: 'Design the schema', status: 'todo', labelIds: [api.id] });
  const endpoint = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${companyId}/issues`, { title: 'Build the endpoint', status: 'todo', labelIds: [bug.id, api.id] });
  const docs = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${companyId}/issues`, { title: 'Write the docs', status: 'backlog' });
  await board.api('POST', `/api/issues/${endpoint.id}/blockers`, { blockerIssueId: schema.id });
  await board.api('POST', `/api/issues/${docs.id}/blockers`, { blockerIssueId: endpoint.id });

  await page.goto(`${board.url}/#/issues/${endpoint.identifier}`);
  await expect(page.getByRole('list', { name: 'Blocked by' })).toContainText('Design the schema');
  await expect(page.getByRole('list', { name: 'Blocks' })).toContainText('Write the docs');
  await expect(page.getByText(/Waits for 1 unfinished issue/)).toBeVisible();
  const props = page.getByRole('complementary', { name: 'Issue properties' });
  await expect(props.locator('.label-chip', { hasText: 'bug' })).toBeVisible();
  await docShot(page, '41-issue-blockers-labels');

  // A cycle is refused with the API's message.
  await page.getByLabel('Add a blocker').fill(docs.identifier);
  await page.getByRole('button', { name: 'Add', exact: true }).first().click();
  await expect(page.getByRole('alert').filter({ hasText: /cycle/ })).toBeVisible();

  await page.goto(`${board.url}/#/issues`);
  const card = page.getByRole('link', { name: new RegExp(`${endpoint.identifier} Build the endpoint`) });
  await expect(card.locator('.blocked-marker')).toBeVisible();
  await expect(card.locator('.label-chip')).toHaveCount(2);
  await docShot(page, '42-issues-board-labels');
  await page.getByLabel('Label').selectOption(bug.id);
  await expect(page.getByRole('link', { name: /Design the schema/ })).toHaveCount(0);
  await expect(card).toBeVisible();
});

test('inbox: items with inline actions, unread count in the sidebar and the title, dismiss', async ({ signedIn: page, board }) => {
  const { companyId, agentId } = await setup(board);
  const key = await board.api<{ key: string }>('POST', `/api/agents/${agentId}/keys`, {});
  await fetch(`${board.url}/api/companies/${companyId}/approvals`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'approve_ceo_strategy', requestedByAgentId: agentId, payload: { version: 1, title: 'Win the SMB market', strategyMarkdown: '# Plan' } }),
  });
  const issue = await board.api<{ id: string }>('POST', `/api/companies/${companyId}/issues`, { title: 'Pick a name', status: 'todo' });
  await fetch(`${board.url}/api/issues/${issue.id}/interactions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'ask_user_questions', idempotencyKey: 'q1', title: 'Which name?', payload: { version: 1, questions: [{ id: 'q1', prompt: 'Which name?', kind: 'single', options: [{ id: 'a', label: 'Globex' }, { id: 'b', label: 'Initech' }] }] } }),
  });
  // A failed run (the fake agent exits 2).
  await board.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, {});

  await page.goto(`${board.url}/#/inbox`);
  const list = page.getByRole('list', { name: 'Inbox' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('link', { name: /Inbox/ }).getByLabel('3 unread')).toBeVisible();
  await expect(page).toHaveTitle('(3) Headcount');
  await expect(list).toContainText('Strategy: Win the SMB market');
  await expect(list).toContainText('Tess: run failed');
  await list.getByRole('button', { name: 'Answer' }).click();
  await expect(page.getByText('Which name?').first()).toBeVisible();
  await docShot(page, '43-inbox');

  await list.getByRole('listitem').filter({ hasText: 'Strategy' }).getByRole('button', { name: 'Approve' }).click();
  await expect(list.getByRole('listitem').filter({ hasText: 'Strategy' })).toHaveCount(0);
  // Approving wakes the requesting agent, and its run fails too (the fake agent exits 2): wait until
  // that run has ended, so its failed-run item is there before dismissing the failed runs.
  await expect
    .poll(async () => {
      const runs = await board.api<{ items: { status: string }[] }>('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`);
      return runs.items.length >= 2 && runs.items.every((r) => !['queued', 'running'].includes(r.status));
    }, { timeout: 30_000 })
    .toBe(true);
  const failed = list.getByRole('listitem').filter({ hasText: 'run failed' });
  await expect(failed).toHaveCount(2);
  await failed.first().getByRole('button', { name: 'Dismiss' }).click();
  await expect(failed).toHaveCount(1);
  await failed.first().getByRole('button', { name: 'Dismiss' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page).toHaveTitle('(1) Headcount');
});
