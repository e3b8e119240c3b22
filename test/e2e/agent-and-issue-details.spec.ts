import { test, expect, shot, FAKE_AGENT } from './fixtures.js';
import type { Board } from './fixtures.js';

interface Setup {
  companyId: string;
  agentId: string;
}

/** A company with one agent whose heartbeats succeed quickly (fake agent in sleep mode). */
async function setup(board: Board, agentName: string): Promise<Setup> {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Globex', budgetMonthlyCents: 10_000 });
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, {
    name: agentName,
    role: 'engineer',
    title: 'Engineer',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '10' }, timeoutSec: 30 },
  });
  return { companyId: company.id, agentId: agent.id };
}

test('agent configuration: generated form, history with diff, rollback, keys shown once', async ({ signedIn: page, board }) => {
  const { agentId } = await setup(board, 'Cleo');
  await page.goto(`${board.url}/#/agents/${agentId}?tab=configuration`);
  await expect(page.getByRole('heading', { name: /Cleo/ })).toBeVisible();

  // The form comes from the process adapter's schema; env values keep their kind.
  await expect(page.getByLabel('Command *')).toHaveValue(process.execPath);
  await expect(page.getByLabel('Variable 1 name')).toHaveValue('FAKE_MODE');
  await page.getByText(/^More settings/).click();
  await page.getByLabel('Timeout (s)', { exact: true }).fill('42');
  await page.getByRole('button', { name: 'Add variable' }).click();
  await page.getByLabel('Variable 3 name').fill('LOG_LEVEL');
  await page.getByLabel('Variable 3 value').fill('debug');
  await shot(page, '30-agent-configuration');
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Configuration saved as a new revision')).toBeVisible();

  // A bad number is caught at its field, before any request.
  await page.getByLabel('Timeout (s)', { exact: true }).fill('4.5');
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Timeout (s) must be a whole number')).toBeVisible();

  await page.getByRole('tab', { name: 'Config history' }).click();
  const latest = page.getByLabel('Changes in revision 2');
  await expect(latest).toContainText('+   "LOG_LEVEL": "debug"');
  await expect(latest).toContainText('-   "timeoutSec": 30');
  await expect(latest).toContainText('+   "timeoutSec": 42');
  await shot(page, '31-agent-history');
  await page.getByRole('button', { name: 'Roll back to this' }).click();
  await expect(page.getByText('Revision 3')).toBeVisible();
  await expect(page.getByLabel('Changes in revision 3')).toContainText('+   "timeoutSec": 30');
  const agent = await board.api<{ adapterConfig: Record<string, unknown> }>('GET', `/api/agents/${agentId}`);
  expect(agent.adapterConfig).toMatchObject({ timeoutSec: 30 });
  expect(agent.adapterConfig.env).toEqual({ FAKE_MODE: 'sleep', FAKE_SLEEP_MS: '10' });

  await page.getByRole('tab', { name: 'Keys' }).click();
  await page.getByLabel('New key name').fill('laptop');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Copy the key now' });
  await expect(shown.getByLabel('New API key')).toHaveValue(/^hck_/);
  const key = await shown.getByLabel('New API key').inputValue();
  await shot(page, '32-agent-key-once');
  await shown.getByRole('button', { name: 'Done' }).click();
  const keys = page.getByRole('table', { name: 'API keys' });
  await expect(keys.getByRole('row', { name: /laptop/ })).toContainText('active');
  await expect(page.getByText(key)).toHaveCount(0);
  const me = await fetch(`${board.url}/api/agents/me`, { headers: { authorization: `Bearer ${key}` } });
  expect(me.status).toBe(200);
  await keys.getByRole('button', { name: 'Revoke key laptop' }).click();
  await expect(keys.getByRole('row', { name: /laptop/ })).toContainText('revoked');
  expect((await fetch(`${board.url}/api/agents/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
});

test('issue collaboration: @mention, document conflict, confirmation, attachment drop', async ({ signedIn: page, board }) => {
  const { companyId } = await setup(board, 'Dana');
  const issue = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${companyId}/issues`, { title: 'Plan the launch', status: 'todo' });
  const doc = await board.api<{ revisionId: string; revisionNumber: number }>('PUT', `/api/issues/${issue.id}/documents/plan`, { title: 'Launch plan', format: 'markdown', body: 'Week 1: build.\n' });
  await board.api('POST', `/api/issues/${issue.id}/interactions`, {
    kind: 'request_confirmation',
    idempotencyKey: 'confirm-plan-1',
    title: 'Approve the launch plan?',
    payload: { version: 1, prompt: 'Shall we go with this plan?', acceptLabel: 'Go ahead', rejectLabel: 'Not yet' },
  });

  await page.goto(`${board.url}/#/issues/${issue.identifier}`);
  await expect(page.getByRole('heading', { name: 'Plan the launch' })).toBeVisible();

  // @ completion inserts the shortname; posting it wakes the agent.
  const comment = page.getByRole('combobox', { name: 'Add a comment' });
  await comment.pressSequentially('Please review, @da');
  await expect(page.getByRole('listbox', { name: 'Mention an agent' }).getByRole('option', { name: 'Dana @dana' })).toBeVisible();
  await comment.press('Enter');
  await expect(comment).toHaveValue('Please review, @dana ');
  await page.getByRole('button', { name: 'Comment', exact: true }).click();
  await expect(page.getByText('woke Dana')).toBeVisible();

  // Someone else saves the document while it is being edited: the save is refused (409), the
  // text typed here is kept, and the change made meanwhile is shown.
  await page.getByRole('button', { name: /plan\s*Launch plan/ }).click();
  // Opened, the document reads rendered; editing is a click away.
  await expect(page.getByRole('article', { name: 'Document Launch plan' })).toContainText('Week 1: build.');
  await page.getByRole('button', { name: 'Edit document' }).click();
  const editor = page.getByLabel('Body of plan');
  await expect(editor).toHaveValue('Week 1: build.\n');
  await editor.fill('Week 1: build.\nWeek 2: launch.\n');
  await board.api('PUT', `/api/issues/${issue.id}/documents/plan`, { title: 'Launch plan', format: 'markdown', body: 'Week 1: build and test.\n', baseRevisionId: doc.revisionId });
  await page.getByRole('button', { name: 'Save revision' }).click();
  await expect(page.getByText(/Revision 2 was saved while you edited/)).toBeVisible();
  await expect(page.getByLabel('Changes made meanwhile')).toContainText('+ Week 1: build and test.');
  await expect(editor).toHaveValue('Week 1: build.\nWeek 2: launch.\n');
  await shot(page, '33-document-conflict');
  await page.getByRole('button', { name: 'Overwrite with my text' }).click();
  await expect(page.getByText('Saved revision 3')).toBeVisible();
  const saved = await board.api<{ body: string; revisionNumber: number }>('GET', `/api/issues/${issue.id}/documents/plan`);
  expect(saved).toMatchObject({ body: 'Week 1: build.\nWeek 2: launch.\n', revisionNumber: 3 });

  // The agent's confirmation, answered from its card.
  await page.getByRole('button', { name: 'Go ahead' }).click();
  await expect(page.getByText('Accepted', { exact: true })).toBeVisible();
  const interactions = await board.api<{ status: string }[]>('GET', `/api/issues/${issue.id}/interactions`);
  expect(interactions.map((i) => i.status)).toEqual(['accepted']);

  // A file dropped on the attachments zone is uploaded.
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['launch checklist\n'], 'checklist.txt', { type: 'text/plain' }));
    return dt;
  });
  await page.getByText(/Drop files here/).dispatchEvent('drop', { dataTransfer });
  await expect(page.getByRole('button', { name: 'Download checklist.txt' })).toBeVisible();
  await shot(page, '34-issue-collaboration');
  const attachments = await board.api<{ fileName: string; byteSize: number }[]>('GET', `/api/issues/${issue.id}/attachments`);
  expect(attachments).toEqual([expect.objectContaining({ fileName: 'checklist.txt', byteSize: 17 })]);
});

test('errors carry the API message; the dashboard inbox lists what needs the board', async ({ signedIn: page, board }) => {
  const { companyId, agentId } = await setup(board, 'Eve');
  const blocked = await board.api<{ id: string }>('POST', `/api/companies/${companyId}/issues`, { title: 'Waiting on a vendor', status: 'blocked' });
  await board.api('POST', `/api/companies/${companyId}/agent-hires`, { name: 'Finn', role: 'designer', reportsTo: agentId, capabilities: 'Design', budgetMonthlyCents: 0, adapterType: 'process', adapterConfig: { command: process.execPath } });
  await page.goto(`${board.url}/#/`);
  // The dashboard shows the inbox API: the hire now; a blocked issue only once it stayed blocked for a day.
  const inbox = page.getByRole('list', { name: 'Needs you' });
  await expect(inbox.getByRole('listitem')).toHaveCount(1);
  await expect(inbox).toContainText('Hire Finn');
  await shot(page, '35-dashboard-needs-you');

  // A status change the API refuses (in_progress needs a checkout) shows the API's own message.
  await page.goto(`${board.url}/#/issues/${blocked.id}`);
  await page.getByRole('complementary', { name: 'Issue properties' }).getByLabel('Status').selectOption('in_progress');
  const alert = page.getByRole('alert').filter({ hasText: 'Could not update the issue' });
  await expect(alert).toBeVisible();
  const res = await fetch(`${board.url}/api/issues/${blocked.id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${board.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'in_progress' }),
  });
  const body = (await res.json()) as { error: string };
  await expect(alert).toContainText(body.error);
  await shot(page, '36-error-toast');
});
