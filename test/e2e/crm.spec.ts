import { test, expect, shot } from './fixtures.js';

/** CRM: outboxes with quota, allowlist, a rule with its live preview, drafts approved one by one and in bulk, the dry-run switch. */
test('crm: outbox, allowlist, rule preview, approve and bulk approve drafts, dry-run switch', async ({ signedIn: page, board }) => {
  const { id: cid } = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Outreach Co' });
  await page.goto(`${board.url}/#/crm?tab=outboxes`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'CRM' })).toBeVisible();
  await expect(page.getByRole('switch')).toBeChecked();

  // An outbox, from the UI.
  await page.getByRole('button', { name: 'New outbox' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New outbox' });
  await dialog.getByLabel('Name').fill('Rehearsal');
  await dialog.getByLabel('Niche').fill('dentists');
  await dialog.getByLabel('Daily cap').fill('10');
  await dialog.getByRole('button', { name: 'Create outbox' }).click();
  const card = page.getByRole('group', { name: 'Outbox Rehearsal' });
  await expect(card).toBeVisible();
  await expect(card.getByLabel('Quota today: 0 of 10 used')).toBeVisible();
  const outboxes = await board.api<{ id: string }[]>('GET', `/api/companies/${cid}/crm/outboxes`);
  const outboxId = outboxes[0]!.id;

  // Allowlist.
  await page.getByRole('tab', { name: 'Allowlist' }).click();
  await page.getByLabel('Recipient', { exact: true }).fill('dr.jane@example.com');
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Allowlist' }).getByText('dr.jane@example.com')).toBeVisible();
  await board.api('POST', `/api/companies/${cid}/crm/allowlist`, { kind: 'domain', value: 'example.org' });

  // Agents' messages with no rule wait for the board.
  const send = (to: string, subject: string) => board.api('POST', `/api/companies/${cid}/crm/send`, { channel: 'dry-run', outboxId, to, payload: { subject, text: `Hello from the fake agent: ${subject}` }, tags: ['intro'] });
  await send('dr.jane@example.com', 'Quick question about your clinic');
  await send('ops@example.org', 'Partnership idea');
  await send('hello@example.org', 'Following up');
  await send('stranger@nowhere.test', 'Blocked one');

  await page.getByRole('tab', { name: 'Activities' }).click();
  const list = page.getByRole('list', { name: 'Activities' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await shot(page, 'crm-01-activities');
  await page.getByRole('button', { name: 'Reject the message to hello@example.org' }).click();
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('Select every draft').check();
  await page.getByRole('button', { name: 'Approve 2 selected' }).click();
  await expect(page.getByText('2 approved · 2 sent')).toBeVisible();
  await expect(page.getByText('Nothing waits for your approval')).toBeVisible();
  await page.getByLabel('Status').selectOption('');
  await expect(list.getByText('sent (dry run)')).toHaveCount(2);
  await expect(list.getByText('blocked: allowlist')).toHaveCount(1);
  await expect(list.getByText('rejected')).toHaveCount(1);

  // A rule, and its live preview as the test message changes.
  await page.getByRole('tab', { name: 'Approval rules' }).click();
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Name').fill('Rehearsals go out');
  await form.getByLabel('When the channel is').selectOption('dry-run');
  await form.getByLabel('and it has every tag').fill('intro');
  await form.getByRole('button', { name: 'Create rule' }).click();
  const preview = page.getByRole('region', { name: 'Rule preview' });
  await preview.getByLabel('Tags').fill('intro, warm');
  await expect(preview.getByRole('status')).toContainText('matches');
  await preview.getByLabel('Channel').selectOption('email');
  await expect(preview.getByRole('status')).toContainText('does not apply');
  await shot(page, 'crm-02-rules');

  // Quota counts real sends only; the switch is instance-wide.
  await page.getByRole('switch').uncheck();
  await expect(page.getByText('Dry run off: approved messages are sent for real')).toBeVisible();
  expect((await board.api<{ forceDryRun: boolean }>('GET', '/api/admin/crm/settings')).forceDryRun).toBe(false);
  await page.getByRole('switch').check();
  await expect(page.getByText('Dry run on: nothing is sent')).toBeVisible();

  await board.api('POST', `/api/companies/${cid}/crm/content-pieces`, { title: 'Clinic launch post', summary: 'Announces the clinic offer', sourcePath: 'content/clinic.md', sourceSha256: 'a'.repeat(64), tags: ['launch'], niche: 'dentists' });
  await page.getByRole('tab', { name: 'Content' }).click();
  await expect(page.getByRole('article', { name: 'Clinic launch post' })).toBeVisible();
  await shot(page, 'crm-03-content');
  await page.getByRole('tab', { name: 'Outboxes' }).click();
  await shot(page, 'crm-04-outboxes');
});
