import { test, expect, shot, FAKE_AGENT } from './fixtures.js';

test('turning the sandbox off keeps a warning on the agent page until it is back on', async ({ signedIn: page, board }) => {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Initech', budgetMonthlyCents: 10_000 });
  const agent = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, {
    name: 'Sandy',
    role: 'engineer',
    adapterType: 'process',
    adapterConfig: { command: process.execPath, args: [FAKE_AGENT], env: { FAKE_MODE: 'sleep' }, inheritEnv: ['SSH_AUTH_SOCK'] },
  });
  await page.goto(`${board.url}/#/agents/${agent.id}?tab=configuration`);
  await expect(page.getByRole('heading', { name: /Sandy/ })).toBeVisible();
  const sandbox = page.getByLabel(/Run inside the OS sandbox/);
  await expect(sandbox).toBeChecked();
  await expect(page.getByText(/The sandbox is off for this agent/)).toHaveCount(0);

  await sandbox.uncheck();
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText('Configuration saved as a new revision')).toBeVisible();
  const banner = page.getByRole('alert').filter({ hasText: 'The sandbox is off for this agent' });
  await expect(banner).toBeVisible();
  // Saved as the agent's setting; inheritEnv, which the form does not show, survived the save.
  const saved = await board.api<{ adapterConfig: Record<string, unknown> }>('GET', `/api/agents/${agent.id}`);
  expect(saved.adapterConfig).toMatchObject({ sandbox: false, inheritEnv: ['SSH_AUTH_SOCK'] });
  // The warning stays on every tab of the agent's page.
  await page.getByRole('tab', { name: 'Runs' }).click();
  await expect(banner).toBeVisible();
  await shot(page, '60-agent-sandbox-off');

  await page.getByRole('tab', { name: 'Configuration' }).click();
  await page.getByLabel(/Run inside the OS sandbox/).check();
  await page.getByRole('button', { name: 'Save configuration' }).click();
  await expect(page.getByText(/The sandbox is off for this agent/)).toHaveCount(0);
  expect((await board.api<{ adapterConfig: Record<string, unknown> }>('GET', `/api/agents/${agent.id}`)).adapterConfig.sandbox).toBeUndefined();
});
