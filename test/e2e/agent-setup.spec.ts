import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { test, expect } from './fixtures.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/**
 * Agent setup without JSON: a Claude Code agent is hired through the generated form — a model
 * picked from the adapter's list, a permission mode, an API key as a secret reference — with the
 * raw JSON kept in sync behind "Advanced" and the server's refusal shown at its field.
 */
test('hire a Claude Code agent through the form, model picked from the list, no JSON typed', async ({ signedIn: page, board }) => {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Initech' });
  const secret = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/secrets`, { name: 'ANTHROPIC_KEY', value: 'sk-ant-not-shown' });
  await page.goto(`${board.url}/#/agents`);
  await page.reload();
  await page.getByRole('button', { name: 'Hire agent' }).first().click();
  const hire = page.getByRole('dialog', { name: 'Hire an agent' });
  await hire.getByLabel('Name *').fill('Dana');
  await hire.getByLabel('Role *').fill('engineer');
  await hire.getByLabel('Title', { exact: true }).fill('Founding Engineer');
  await hire.getByLabel('Runs with').selectOption({ label: 'Claude Code' });

  // The model comes from GET …/adapters/vendor_a_local/models.
  const model = hire.getByLabel('Model', { exact: true });
  await expect(model.locator('option', { hasText: 'Sonnet (latest)' })).toHaveCount(1);
  await model.selectOption({ label: 'Sonnet (latest) (sonnet)' });
  await hire.getByLabel('Permission mode').selectOption('acceptEdits');

  // The API key: a reference to the company's secret, never its value.
  await hire.getByRole('button', { name: 'Add variable' }).click();
  await hire.getByLabel('Variable 1 name').fill('ANTHROPIC_API_KEY');
  await hire.getByLabel('Variable 1 kind').selectOption('secret');
  await hire.getByLabel('Variable 1 secret', { exact: true }).selectOption({ label: 'ANTHROPIC_KEY' });

  // A relative folder: the server refuses it, and says so at the field.
  const cwd = hire.getByLabel('Working folder');
  await cwd.fill('projects/site');
  await hire.getByRole('button', { name: 'Create without approval' }).click();
  await expect(hire.getByText('must be an absolute path')).toBeVisible();
  await expect(cwd).toHaveAttribute('aria-invalid', 'true');
  const work = path.join(board.home, 'site');
  await cwd.fill(work);

  // "Advanced" shows the same configuration as JSON; an edit there fills the form back.
  await hire.getByLabel('Advanced: edit as JSON').check();
  const json = hire.getByLabel('Configuration (JSON)');
  await expect(json).toHaveValue(/"model": "sonnet"/);
  await expect(json).toHaveValue(new RegExp(`"secretId": "${secret.id}"`));
  const edited = JSON.parse(await json.inputValue()) as Record<string, unknown>;
  await json.fill(JSON.stringify({ ...edited, timeoutSec: 900 }, null, 2));
  await expect(hire.getByLabel('Timeout (s)', { exact: true })).toHaveValue('900');
  await hire.getByLabel('Advanced: edit as JSON').uncheck();

  mkdirSync(DOCS, { recursive: true });
  // A tall window shows the whole form, from the identity fields to the environment.
  await page.setViewportSize({ width: 1360, height: 1900 });
  await page.screenshot({ path: path.join(DOCS, 'agent-setup-form.png') });
  await page.setViewportSize({ width: 1360, height: 860 });

  await hire.getByRole('button', { name: 'Create without approval' }).click();
  await expect(page.getByRole('heading', { name: 'Dana' })).toBeVisible();
  const agents = await board.api<Array<{ name: string; adapterType: string; adapterConfig: Record<string, unknown> }>>('GET', `/api/companies/${company.id}/agents`);
  const dana = agents.find((a) => a.name === 'Dana')!;
  expect(dana.adapterType).toBe('vendor_a_local');
  expect(dana.adapterConfig).toMatchObject({
    model: 'sonnet',
    permissionMode: 'acceptEdits',
    cwd: work,
    timeoutSec: 900,
    env: { ANTHROPIC_API_KEY: { type: 'secret_ref', secretId: secret.id, version: 'latest' } },
  });
  // The board names the product, not the type key.
  await expect(page.getByText('Claude Code').first()).toBeVisible();
  await expect(page.getByText('vendor_a_local')).toHaveCount(0);
});
