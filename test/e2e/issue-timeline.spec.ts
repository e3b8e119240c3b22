import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { test, expect, FAKE_AGENT } from './fixtures.js';
import type { Board } from './fixtures.js';

const DOCS_SHOTS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** Screenshots the README shows are kept under docs/screenshots/. */
async function keep(page: Page, name: string): Promise<void> {
  mkdirSync(DOCS_SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(DOCS_SHOTS, `${name}.png`) });
}

interface RunItem {
  id: string;
  status: string;
}

async function runsOf(board: Board, companyId: string, issueId: string): Promise<RunItem[]> {
  return (await board.api<{ items: RunItem[] }>('GET', `/api/companies/${companyId}/heartbeat-runs?issueId=${issueId}`)).items;
}

async function setup(board: Board) {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Initech' });
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, {
    name: 'Fay',
    role: 'engineer',
    title: 'Engineer',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'fail' }, timeoutSec: 30 },
  });
  const issue = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${company.id}/issues`, {
    title: 'Ship the pricing page',
    description: 'Three tiers:\n\n- **Free**\n- Team\n- Enterprise\n\n<script>alert(1)</script>[bad](javascript:alert(1))',
    status: 'todo',
  });
  return { companyId: company.id, agentId: agent.id, issue };
}

test('issue timeline: a comment, a failed run retried, status and assignee changes, in one list oldest first', async ({ signedIn: page, board }) => {
  const { companyId, agentId, issue } = await setup(board);
  // The agent's run on this issue fails (the fake CLI exits 2).
  const invoked = await board.api<{ runId: string }>('POST', `/api/agents/${agentId}/heartbeat/invoke`, { issueId: issue.id });
  await expect.poll(async () => (await runsOf(board, companyId, issue.id)).map((r) => r.status), { timeout: 30_000 }).toEqual(['failed']);

  // A strategy approval linked to the issue, and a document written in two revisions.
  await board.api('POST', `/api/companies/${companyId}/approvals`, { type: 'approve_ceo_strategy', requestedByAgentId: agentId, payload: { title: 'Price by seat' }, issueIds: [issue.id] });
  const doc = await board.api<{ revisionId: string }>('PUT', `/api/issues/${issue.id}/documents/plan`, { title: 'Pricing plan', format: 'markdown', body: '# Pricing\n\nFlat price.\n' });
  await board.api('PUT', `/api/issues/${issue.id}/documents/plan`, { title: 'Pricing plan', format: 'markdown', body: '# Pricing\n\n| Tier | Price |\n|---|---|\n| Free | $0 |\n| Pro | $12 per seat |\n', baseRevisionId: doc.revisionId });

  await page.goto(`${board.url}/#/issues/${issue.identifier}`);
  await expect(page.getByRole('heading', { name: 'Ship the pricing page' })).toBeVisible();
  // The description is markdown, rendered and sanitized: no script, no javascript: link.
  await expect(page.locator('.md strong', { hasText: 'Free' })).toBeVisible();
  await expect(page.locator('.md script')).toHaveCount(0);
  await expect(page.locator('.md a[href^="javascript"]')).toHaveCount(0);

  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('created the issue')).toBeVisible();
  await expect(timeline.getByRole('link', { name: 'Price by seat' })).toBeVisible();
  await expect(timeline.getByText(/created the document\s*plan\s*\(revision 1\)/)).toBeVisible();
  await expect(timeline.getByText(/updated the document\s*plan\s*\(revision 2\)/)).toBeVisible();
  const failed = timeline.getByLabel('Run by Fay, failed');
  await expect(failed).toBeVisible();
  await expect(failed.getByRole('link', { name: 'Transcript' })).toHaveAttribute('href', `#/runs/${invoked.runId}`);
  await expect(failed.getByRole('alert')).toContainText(/exit/i);

  // The document, opened from its timeline entry, reads rendered (a table here); an earlier
  // revision is a click away.
  await timeline.getByRole('link', { name: 'plan', exact: true }).last().click();
  const document = page.getByRole('article', { name: 'Document Pricing plan' });
  await expect(document.getByRole('cell', { name: '$12 per seat' })).toBeVisible();
  await document.getByText('Revisions (2)').click();
  await document.getByRole('button', { name: 'Show revision 1' }).click();
  await expect(document.getByText('Flat price.')).toBeVisible();
  await expect(document.getByRole('cell', { name: '$12 per seat' })).toHaveCount(0);
  await document.scrollIntoViewIfNeeded();
  await keep(page, 'issue-document');
  await document.getByRole('button', { name: 'Back to current' }).click();
  await expect(document.getByRole('cell', { name: '$12 per seat' })).toBeVisible();

  // A comment from the board, sent with Ctrl+Enter.
  const composer = page.getByRole('combobox', { name: 'Add a comment' });
  await composer.fill('The run failed; **retrying** after the fix.');
  await composer.press('Control+Enter');
  const comment = timeline.getByLabel('Comment by the board');
  await expect(comment.locator('strong', { hasText: 'retrying' })).toBeVisible();

  // A status change from the properties panel.
  const props = page.getByRole('complementary', { name: 'Issue properties' });
  await props.getByLabel('Status').selectOption('blocked');
  await expect(timeline.getByText(/moved it from\s*todo\s*to\s*blocked/)).toBeVisible();

  // Retry wakes the agent on the issue again; this time its CLI works, and the new run shows up.
  await board.api('PATCH', `/api/agents/${agentId}`, { adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '10' }, timeoutSec: 30 } });
  await failed.getByRole('button', { name: 'Retry the run of Fay' }).click();
  await expect(timeline.getByLabel('Run by Fay, succeeded')).toBeVisible({ timeout: 30_000 });
  const runs = await runsOf(board, companyId, issue.id);
  expect(runs.map((r) => r.status).sort()).toEqual(['failed', 'succeeded']);

  // An assignee change (it wakes Fay once more; that run joins the timeline too).
  await props.getByLabel('Assignee').selectOption(agentId);
  await expect(timeline.getByText('assigned it to Fay')).toBeVisible();

  // Oldest first: created, the failed run, the comment, the status change, then the retried run.
  const order = await timeline.getByRole('listitem').evaluateAll((items) => items.map((li) => li.className.replace('timeline-item timeline-', '')));
  expect(order.indexOf('created')).toBe(0);
  expect(order.indexOf('run')).toBeLessThan(order.indexOf('comment'));
  expect(order.indexOf('comment')).toBeLessThan(order.indexOf('status'));
  expect(order.lastIndexOf('run')).toBeGreaterThan(order.indexOf('status'));

  // Timestamps read relative, with the exact time on hover.
  const time = comment.locator('time');
  await expect(time).toHaveText('just now');
  await expect(time).toHaveAttribute('title', /\d/);
  // The board scrolls inside its main pane: show the timeline's end in a taller window.
  await expect(page.getByText('Run queued again')).toBeHidden({ timeout: 20_000 });
  await page.setViewportSize({ width: 1360, height: 1200 });
  await page.getByRole('combobox', { name: 'Add a comment' }).scrollIntoViewIfNeeded();
  await keep(page, 'issue-timeline');
});

test('issue page: title and description edited in place, cancel, delete with confirmation', async ({ signedIn: page, board }) => {
  const { companyId, issue } = await setup(board);
  await page.goto(`${board.url}/#/issues/${issue.identifier}`);
  const heading = page.getByRole('heading', { name: 'Ship the pricing page' });
  await expect(heading).toBeVisible();

  // `?` lists the shortcuts in effect, this page's included, chords as they are typed.
  await page.locator('body').press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByRole('region', { name: 'Issue shortcuts' })).toContainText('Edit the issue title');
  await expect(help.getByRole('region', { name: 'Issue shortcuts' })).toContainText('Write a comment');
  await expect(help.getByRole('region', { name: 'General shortcuts' })).toContainText('Ctrl+K');
  await keep(page, 'keyboard-shortcuts');
  await help.getByRole('button', { name: 'Close' }).click();

  // Escape cancels: nothing is saved (`e` opens the title).
  await page.locator('body').press('e');
  const title = page.getByRole('textbox', { name: 'Title' });
  await title.fill('Something else');
  await title.press('Escape');
  await expect(page.getByRole('heading', { name: 'Ship the pricing page' })).toBeVisible();

  // An empty title is refused in place, before any request.
  await page.getByRole('heading', { name: 'Ship the pricing page' }).getByRole('button').click();
  await title.fill('   ');
  await title.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'A title is required' })).toBeVisible();
  // A title the API refuses (over its length limit) shows the API's reason under the field.
  await title.fill('x'.repeat(600));
  await title.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: /title/i })).toBeVisible();
  await expect(title).toBeVisible();
  // Enter saves.
  await title.fill('Ship the new pricing page');
  await title.press('Enter');
  await expect(page.getByRole('heading', { name: 'Ship the new pricing page' })).toBeVisible();

  // The description: Edit, Ctrl+Enter saves, rendered again.
  await page.getByRole('button', { name: 'Edit description' }).click();
  const description = page.getByRole('textbox', { name: 'Description' });
  await description.fill('Two tiers now: _Free_ and **Pro**.');
  await keep(page, 'issue-edit-in-place');
  await description.press('Control+Enter');
  await expect(page.locator('.md strong', { hasText: 'Pro' })).toBeVisible();
  const saved = await board.api<{ title: string; description: string }>('GET', `/api/issues/${issue.id}`);
  expect(saved).toMatchObject({ title: 'Ship the new pricing page', description: 'Two tiers now: _Free_ and **Pro**.' });
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('edited the title').first()).toBeVisible();

  // Cancel: the status becomes cancelled, on the timeline too.
  await page.getByRole('button', { name: 'Cancel issue' }).click();
  await expect(timeline.getByText(/moved it from\s*todo\s*to\s*cancelled/)).toBeVisible();
  expect((await board.api<{ status: string }>('GET', `/api/issues/${issue.id}`)).status).toBe('cancelled');
  await expect(page.getByRole('button', { name: 'Cancel issue' })).toHaveCount(0);

  // Delete asks first; "Keep it" keeps it.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${issue.identifier}?` });
  await expect(dialog).toBeVisible();
  await keep(page, 'issue-delete-confirm');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete issue' }).click();
  await expect(page).toHaveURL(/#\/issues$/);
  const list = await board.api<{ items: unknown[] }>('GET', `/api/companies/${companyId}/issues`);
  expect(list.items).toEqual([]);
  const gone = await fetch(`${board.url}/api/issues/${issue.id}`, { headers: { authorization: `Bearer ${board.token}` } });
  expect(gone.status).toBe(404);
});
