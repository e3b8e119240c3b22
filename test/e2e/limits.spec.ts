import { test, expect, shot } from './fixtures.js';

/** Limits in the board: the settings section, the per-company disk use, a long thread on the issue's timeline, limit hits in the inbox. */
test('limits: settings and disk use, a long thread on the timeline, an agent that hit a limit needs you', async ({ signedIn: page, board }) => {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Chatty Co' });
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, { name: 'Chatter', role: 'engineer', adapterType: 'process', adapterConfig: { command: 'echo' } });
  const { key } = await board.api<{ key: string }>('POST', `/api/agents/${agent.id}/keys`, {});
  const issue = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${company.id}/issues`, { title: 'A long thread' });
  for (let i = 1; i <= 150; i++) await board.api('POST', `/api/issues/${issue.id}/comments`, { body: `Comment number ${i}` });

  // Settings: the limits, editable, and each company's use against its budgets.
  await page.goto(`${board.url}/#/settings`);
  const limits = page.getByRole('region', { name: 'Limits' });
  await expect(limits.getByLabel('Comments per agent per minute')).toHaveValue('30');
  await limits.getByLabel('Comments per agent per minute').fill('2');
  await limits.getByRole('button', { name: 'Apply limits' }).click();
  await expect(page.getByText('Limits saved')).toBeVisible();
  expect((await board.api<{ limits: { commentsPerMinute: number } }>('GET', '/api/settings')).limits.commentsPerMinute).toBe(2);
  const perCompany = page.getByRole('table', { name: 'Disk use by company' });
  await expect(perCompany.getByRole('row', { name: /Chatty Co/ })).toContainText('of 2.00 GB');
  // Issue workspaces against their budget (20 GiB by default), beside transcripts and attachments.
  await expect(perCompany.getByRole('columnheader', { name: 'Workspaces' })).toBeVisible();
  await expect(perCompany.getByRole('row', { name: /Chatty Co/ })).toContainText('0 B of 20.00 GB');
  await expect(limits.getByLabel('Issue workspaces per company (MiB)')).toHaveValue(String(20 * 1024));
  await shot(page, 'limits-01-settings');

  // The issue's thread: every comment on the timeline, oldest first (it reads the pages itself).
  await page.goto(`${board.url}/#/issues/${issue.id}`);
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('Comment number 150', { exact: true })).toBeVisible();
  await expect(timeline.getByText('Comment number 1', { exact: true })).toBeVisible();
  await expect(timeline.getByLabel('Comment by the board')).toHaveCount(150);

  // The agent posts past its rate: the dashboard says so.
  for (let i = 0; i < 3; i++) {
    await fetch(`${board.url}/api/issues/${issue.id}/comments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body: `agent comment ${i}` }),
    });
  }
  await page.goto(`${board.url}/#/`);
  const inbox = page.getByRole('list', { name: 'Needs you' });
  await expect(inbox.getByText('Chatter hit a limit', { exact: true })).toBeVisible();
  await expect(inbox.getByText('Limit hit', { exact: true })).toBeVisible();
  await expect(inbox.getByText('comments (2 per minute)', { exact: true })).toBeVisible();
  await shot(page, 'limits-02-inbox');
});
