import path from 'node:path';
import { test, expect, shot } from './fixtures.js';

const PLUGINS = path.resolve(import.meta.dirname, '../fixtures/plugins');

/** Adapters: built-ins and plugins with their status, install from a folder, load errors, test environment, uninstall. */
test('adapters: install from a folder, see parser and load errors, test an environment, uninstall', async ({ signedIn: page, board }) => {
  await board.api('POST', '/api/companies', { name: 'Plug Co' });
  await page.goto(`${board.url}/#/adapters`);
  await page.reload();
  const builtins = page.getByRole('list', { name: 'Built in adapters' });
  await expect(builtins.getByText('Claude Code', { exact: true })).toBeVisible();
  await expect(page.getByText('No plugins installed')).toBeVisible();

  for (const dir of ['echo-plugin', 'parser-v2']) {
    await page.getByRole('button', { name: 'Install adapter' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Install an adapter' });
    await dialog.getByLabel('Folder').fill(path.join(PLUGINS, dir));
    await dialog.getByRole('button', { name: 'Install' }).click();
    await expect(dialog).toBeHidden({ timeout: 30_000 });
  }
  const plugins = page.getByRole('list', { name: 'Plugins adapters' });
  await expect(plugins.getByRole('listitem')).toHaveCount(2);
  // echo-plugin declares parser contract 1.2.0 (compatible); parser-v2 a 2.x one (raw output).
  await expect(plugins.getByRole('listitem').filter({ hasText: 'echo' }).getByText('parsed transcript')).toBeVisible();
  await expect(plugins.getByRole('listitem').filter({ hasText: 'v2' }).getByText('raw transcript')).toBeVisible();

  // A package that is not an adapter: the API's reason.
  await page.getByRole('button', { name: 'Install adapter' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Install an adapter' });
  await dialog.getByLabel('Folder').fill(path.join(PLUGINS, 'bad-shape'));
  await dialog.getByRole('button', { name: 'Install' }).click();
  await expect(page.getByText('Could not install the adapter')).toBeVisible({ timeout: 30_000 });
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Test the environment of the process adapter: checks by level with hints.
  await page.getByRole('button', { name: 'Test environment of Process' }).click();
  const panel = page.getByRole('region', { name: 'Environment test of Process' });
  await panel.getByLabel('Command *').fill('/definitely/not/here');
  await panel.getByRole('button', { name: 'Test environment' }).click();
  await expect(panel.getByRole('list', { name: 'Environment checks' })).toBeVisible();
  await expect(panel.getByText('Not installed')).toBeVisible();
  await shot(page, 'adapters-01-list');

  // Uninstall a plugin.
  const echo = plugins.getByRole('listitem').filter({ hasText: 'echo' });
  await echo.getByRole('button', { name: /^Uninstall/ }).click();
  await page.getByRole('dialog', { name: 'Uninstall adapter' }).getByRole('button', { name: 'Uninstall' }).click();
  await expect(plugins.getByRole('listitem')).toHaveCount(1);
});
