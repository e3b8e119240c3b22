import { test, expect, shot } from './fixtures.js';

test('first run: the demo company starts, and its three heartbeats show up live', async ({ signedIn: page }) => {
  await page.getByRole('button', { name: /Start the demo company/ }).click();
  await expect(page.getByRole('heading', { name: 'Demo Co' })).toBeVisible();
  await page.getByRole('link', { name: 'Runs' }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  // Nothing is reloaded: the rows arrive and change status through the event stream. The three
  // woken agents run at least once each (their work may wake each other for more).
  await expect.poll(() => runs.getByRole('row').filter({ hasText: 'succeeded' }).count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
  for (const name of ['Ava', 'Ben', 'Cleo']) await expect(runs.getByRole('row').filter({ hasText: name }).filter({ hasText: 'succeeded' }).first()).toBeVisible();
  await page.getByRole('link', { name: 'Org chart' }).click();
  await expect(page.getByRole('treeitem', { name: /Ava/ })).toBeVisible();
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('list', { name: 'Recent activity' })).toContainText('Heartbeat');
  await shot(page, '40-demo-dashboard');
});
