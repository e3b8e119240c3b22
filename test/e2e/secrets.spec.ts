import { test, expect, shot } from './fixtures.js';

/** Secrets: create, rotate to a new version, see where one is used; the value never comes back. */
test('secrets: create, rotate, usage, and the value is never shown', async ({ signedIn: page, board }) => {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Vault Co' });
  const existing = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/secrets`, { name: 'GITHUB_TOKEN', value: 'ghp_existing_value_123', description: 'CI token' });
  await board.api('POST', `/api/companies/${company.id}/agents`, {
    name: 'Builder',
    adapterType: 'process',
    adapterConfig: { command: '/bin/true', env: { GH: { type: 'secret_ref', secretId: existing.id, version: 'latest' } } },
  });
  await page.goto(`${board.url}/#/secrets`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Secrets' });
  await expect(table.getByRole('list', { name: 'Uses of GITHUB_TOKEN' }).getByRole('link', { name: 'Builder' })).toBeVisible();

  // Create: the value is typed once.
  const secret = 'sk-live-very-secret-value-42';
  await page.getByRole('button', { name: 'New secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'New secret' });
  await dialog.getByLabel('Name').fill('OPENAI_API_KEY');
  await dialog.getByLabel('Value').fill(secret);
  await dialog.getByLabel('Description').fill('Model provider key');
  await dialog.getByRole('button', { name: 'Create secret' }).click();
  await expect(table.getByText('OPENAI_API_KEY')).toBeVisible();
  await expect(table.getByText('Not used')).toBeVisible();

  // Rotate: a new version.
  await page.getByRole('button', { name: 'Rotate OPENAI_API_KEY' }).click();
  const rotate = page.getByRole('dialog', { name: 'Rotate OPENAI_API_KEY' });
  await rotate.getByLabel('New value').fill('sk-live-rotated-value-43');
  await rotate.getByRole('button', { name: 'Save new version' }).click();
  await expect(page.getByText('OPENAI_API_KEY is now at version 2')).toBeVisible();
  await expect(table.getByRole('row', { name: /OPENAI_API_KEY/ }).getByText('v2')).toBeVisible();

  // An invalid name: the API's message, naming the field.
  await page.getByRole('button', { name: 'New secret' }).click();
  await page.getByRole('dialog', { name: 'New secret' }).getByLabel('Name').fill('1bad name');
  await page.getByRole('dialog', { name: 'New secret' }).getByLabel('Value').fill('x');
  await page.getByRole('dialog', { name: 'New secret' }).getByRole('button', { name: 'Create secret' }).click();
  await expect(page.getByText(/body\.name/)).toBeVisible();
  await page.getByRole('dialog', { name: 'New secret' }).getByRole('button', { name: 'Cancel' }).click();

  // Deleting one in use is refused with the server's reason.
  await page.getByRole('button', { name: 'Delete GITHUB_TOKEN' }).click();
  await page.getByRole('dialog', { name: 'Delete secret' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText(/in use|references/i).first()).toBeVisible();
  await page.getByRole('dialog', { name: 'Delete secret' }).getByRole('button', { name: 'Keep it' }).click();

  const html = await page.content();
  expect(html).not.toContain(secret);
  expect(html).not.toContain('sk-live-rotated-value-43');
  expect(html).not.toContain('ghp_existing_value_123');
  await shot(page, 'secrets-01-list');
});
