import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { test, expect, shot, FAKE_AGENT } from './fixtures.js';

/** Wake requests the engine has not handled yet (no route lists them; the test reads the file). */
function pendingWakes(home: string): number {
  const db = new Database(path.join(home, 'service.db'), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM wake_requests WHERE status = 'pending'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * The founder's main path through the board, in a real browser against a real server with a real
 * agent process: onboarding → hire through an approval → an issue for the new agent → a heartbeat
 * of the fake agent CLI, watched live → the run ends, the issue is done, the cost is on the costs page.
 */
test('founder flow: onboarding, hire, issue, heartbeat with live transcript, costs', async ({ signedIn: page, board }) => {
  // First run: the login link signed the tab in; no company yet, so onboarding.
  await expect(page.getByRole('heading', { name: 'Welcome to Headcount' })).toBeVisible();
  await shot(page, '01-onboarding');
  await page.getByRole('button', { name: /Set up my company/ }).click();
  await page.getByLabel('Company name').fill('Acme Robotics');
  await page.getByLabel('What does it do?').fill('Makes friendly robots for small workshops.');
  await page.getByLabel('Monthly budget (USD)').fill('50');
  await shot(page, '02-onboarding-company');
  await page.getByRole('button', { name: 'Create company' }).click();

  await expect(page.getByRole('heading', { name: 'Your CEO agent' })).toBeVisible();
  await page.getByLabel('CEO name').fill('Ava');
  await page.getByRole('radio', { name: /Process/ }).click();
  await page.getByLabel('Command *').fill(process.execPath);
  await page.getByLabel('Args', { exact: true }).fill(FAKE_AGENT);
  await page.getByRole('button', { name: 'Test environment' }).click();
  await expect(page.getByRole('list', { name: 'Environment checks' })).toBeVisible();
  await shot(page, '03-onboarding-ceo');
  await page.getByRole('button', { name: 'Create CEO' }).click();

  await expect(page.getByRole('heading', { name: 'Acme Robotics' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Live')).toBeVisible();

  // Hire an engineer through an approval. The command wraps the fake agent: its run prints a line,
  // then waits for a gate file the test opens once it watches the run, then works. What follows
  // the gate can only reach the open page live.
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'Hire agent' }).click();
  const hire = page.getByRole('dialog', { name: 'Hire an agent' });
  await hire.getByLabel('Name *').fill('Ben');
  await hire.getByLabel('Role *').fill('engineer');
  await hire.getByLabel('Title', { exact: true }).fill('Founding Engineer');
  await hire.getByLabel('Reports to').selectOption({ label: 'Ava · Chief Executive Officer' });
  await hire.getByLabel('Monthly budget (USD)').fill('20');
  await hire.getByLabel('Runs with').selectOption('process');
  await hire.getByLabel('Command *').fill('/bin/sh');
  // Outside the data home and /tmp: the sandboxed agent sees neither (its /tmp is its own), but it
  // may read the rest of the machine.
  const gateDir = path.join(os.homedir(), '.cache', 'headcount-tests');
  mkdirSync(gateDir, { recursive: true });
  const gate = path.join(gateDir, `gate-${process.pid}-${Date.now()}`);
  await hire.getByLabel('Args', { exact: true }).fill(['-c', 'echo "waking up"; while [ ! -e "$2" ]; do sleep 0.1; done; exec "$0" "$1"', process.execPath, FAKE_AGENT, gate].join('\n'));
  await hire.getByLabel('Why hire (for the approval)').fill('We need a landing page this week.');
  await shot(page, '05-hire-dialog');
  await hire.getByRole('button', { name: 'Request hire' }).click();

  await expect(page.getByRole('heading', { name: 'Hire Ben (engineer)' })).toBeVisible();
  await shot(page, '06-approval-pending');
  await page.getByLabel('Decision note').fill('Welcome aboard.');
  await page.getByRole('button', { name: 'Approve' }).click();
  const decision = page.getByRole('region', { name: 'Decision', exact: true });
  await expect(decision.getByText('Welcome aboard.')).toBeVisible();
  await expect(decision.getByText('approved', { exact: true })).toBeVisible();
  await shot(page, '07-approval-approved');

  // Pause Ben, so the assignment below does not start a run by itself: the heartbeat is invoked.
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('row', { name: /Ben/ }).click();
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();

  await page.getByRole('link', { name: 'Issues' }).click();
  await page.getByRole('button', { name: 'New issue' }).first().click();
  const newIssue = page.getByRole('dialog', { name: 'New issue' });
  await newIssue.getByLabel('Title *').fill('Put up a landing page');
  await newIssue.getByLabel('Description').fill('One page saying what Acme does, with a sign-up form.');
  await newIssue.getByLabel('Priority').selectOption('high');
  await newIssue.getByLabel('Assignee').selectOption({ label: 'Ben' });
  await newIssue.getByRole('button', { name: 'Create issue' }).click();
  await expect(page.getByRole('heading', { name: 'Put up a landing page' })).toBeVisible();
  const properties = page.getByRole('complementary', { name: 'Issue properties' });
  await expect(properties.getByLabel('Status')).toHaveValue('todo');
  await shot(page, '08-issue-todo');
  // The assignment woke Ben while paused. The engine skips that wake at its next tick (1 s); were
  // Ben resumed first, the wake would start a run on its own and the invoke below would queue a
  // second one after it (a run of an issue already done, which fails).
  await expect.poll(() => pendingWakes(board.home), { timeout: 15_000 }).toBe(0);

  // Resume and invoke the heartbeat, focused on the issue.
  await page.getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('row', { name: /Ben/ }).click();
  await page.getByRole('button', { name: 'Resume' }).click();
  await page.getByRole('button', { name: 'Invoke heartbeat' }).click();
  const invoke = page.getByRole('dialog', { name: 'Invoke a heartbeat of Ben' });
  await expect(invoke.getByLabel('Focus issue').locator('option:checked')).toHaveText(/Put up a landing page/);
  await invoke.getByRole('button', { name: 'Invoke now' }).click();

  // Open the run while it is running: the transcript replays, then follows live.
  const runs = page.getByRole('table', { name: 'Runs of this agent' });
  await expect(runs.getByRole('row')).toHaveCount(2);
  await runs.getByRole('row').nth(1).click();
  const transcript = page.getByRole('log', { name: 'Run transcript' });
  await expect(transcript).toContainText('waking up');
  await expect(page.locator('h1 .pill')).toHaveText('running');
  await expect(transcript).not.toContainText('checkout');
  await shot(page, '09-run-live');
  writeFileSync(gate, '');
  await expect(transcript).toContainText('"type":"checkout","status":200', { timeout: 30_000 });
  await expect(transcript).toContainText('"type":"result","ok":true');
  rmSync(gate, { force: true });
  await expect(page.locator('h1 .pill')).toHaveText('succeeded');
  await shot(page, '10-run-succeeded');

  // The agent finished the issue and said so.
  await page.getByRole('link', { name: 'Open the issue' }).click();
  await expect(page.getByRole('complementary', { name: 'Issue properties' }).getByLabel('Status')).toHaveValue('done');
  await expect(page.getByText('Working on it from the fake agent.')).toBeVisible();
  await shot(page, '11-issue-done');

  // Its cost (1.25 cents) is on the costs page, counted against Ben and the company.
  await page.getByRole('link', { name: 'Costs' }).click();
  const byAgent = page.getByRole('table', { name: 'Costs by agent' });
  await expect(byAgent.getByRole('row', { name: /Ben/ })).toContainText('$0.0125');
  await expect(page.getByRole('meter', { name: 'Company budget' })).toHaveAttribute('aria-valuetext', /\$0\.0125 of \$50\.00/);
  await page.getByRole('button', { name: 'Set company budget' }).click();
  const budget = page.getByRole('dialog', { name: 'Company monthly budget' });
  await expect(budget.getByLabel('Monthly budget (USD)')).toHaveValue('50');
  await budget.getByLabel('Monthly budget (USD)').fill('100');
  await budget.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('meter', { name: 'Company budget' })).toHaveAttribute('aria-valuetext', /\$0\.0125 of \$100\.00/);
  await shot(page, '12-costs');

  // The other pages, for the record (and to be looked at).
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Acme Robotics' })).toBeVisible();
  await expect(page.getByText('Nothing waiting on you')).toBeVisible();
  await shot(page, '13-dashboard');
  await page.getByRole('link', { name: 'Org chart' }).click();
  await expect(page.getByRole('tree', { name: 'Org chart' }).getByRole('treeitem', { name: /Ben/ })).toBeVisible();
  await shot(page, '14-org-chart');
  await page.getByRole('link', { name: 'Issues' }).click();
  await expect(page.getByRole('region', { name: /^Done: 1/ })).toBeVisible();
  await shot(page, '15-issues-board');
  await page.getByRole('button', { name: 'List' }).click();
  await expect(page.getByRole('table', { name: 'Issues' })).toContainText('Put up a landing page');
  await shot(page, '16-issues-list');
  await page.getByRole('link', { name: 'Runs' }).click();
  await expect(page.getByRole('table', { name: 'Runs' }).getByRole('row', { name: /Ben/ })).toContainText('succeeded');
  await shot(page, '17-runs');
  await page.getByRole('link', { name: 'Approvals' }).click();
  await expect(page.getByText('Nothing to decide')).toBeVisible();
  await shot(page, '18-approvals');
  await page.getByRole('link', { name: 'Agents' }).click();
  await expect(page.getByRole('table', { name: 'Agents' }).getByRole('row')).toHaveCount(3);
  await shot(page, '19-agents');

  // Dark theme: system → light → dark with the toggle; the choice survives a reload.
  await page.getByRole('button', { name: /Theme: system/ }).click();
  await page.getByRole('button', { name: /Theme: light/ }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Acme Robotics' })).toBeVisible();
  await shot(page, '20-dashboard-dark');

  // What the UI showed is what the API holds.
  const issues = await board.api<{ items: { title: string; status: string }[] }>('GET', `/api/companies/${(await board.api<{ id: string }[]>('GET', '/api/companies'))[0]!.id}/issues`);
  expect(issues.items).toEqual([expect.objectContaining({ title: 'Put up a landing page', status: 'done' })]);
});
