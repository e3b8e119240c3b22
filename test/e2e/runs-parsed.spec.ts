import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot, dismissNotifications } from './fixtures.js';
import { setupAgent, startRun } from './runs-helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A short run watched from the start: the adapter's parser (run in the page's Worker) shows
 * assistant text, tool calls with their input on demand, tool results, and the result with usage
 * and cost once the run ends; the terminal view shows the raw lines.
 */
test('run detail: parsed entries live, result summary with usage and cost, terminal view', async ({ signedIn: page, board }) => {
  const { companyId, agentId } = await setupAgent(board, { FAKE_MB: '0.02', FAKE_LIVE_MS: '6000', FAKE_TICK_MS: '400' });
  await page.goto(`${board.url}/#/`);
  await page.reload();
  const runId = await startRun(board, companyId, agentId);
  await page.goto(`${board.url}/#/runs/${runId}`);
  const log = page.getByRole('log', { name: 'Run transcript' });
  await expect(log.getByText('REPLAY-END marker', { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(log.getByText(/live tick [3-9]/).first()).toBeVisible({ timeout: 20_000 });
  // Parsed, not raw: no JSON on screen.
  await expect(log.getByText('"type":"assistant"')).toHaveCount(0);

  const summary = log.getByRole('group', { name: 'Run result' });
  await expect(summary).toBeVisible({ timeout: 30_000 });
  await expect(summary).toContainText('All done: the fake agent finished its work.');
  await expect(summary).toContainText('1,200 in · 340 out · 5,000 cached · $0.0123');
  await expect(page.getByRole('heading').getByText('succeeded')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Jump to live' })).toHaveCount(0);
  await shot(page, 'runs-05-detail-finished');

  // Scroll up to a tool call and open its input.
  await log.evaluate((el) => (el.scrollTop = 0));
  const call = log.getByRole('button', { name: /^Read \/work\/src\/module-0\.ts/ }).first();
  await call.click();
  await expect(log.getByText('"file_path": "/work/src/module-0.ts"')).toBeVisible();

  await page.getByRole('tab', { name: 'Terminal' }).click();
  await expect(page.getByRole('region', { name: 'Terminal view' }).locator('.xterm-rows')).toContainText('"type":"result"', { timeout: 20_000 });
  await shot(page, 'runs-06-detail-terminal-finished');

  // The list: status, agent, trigger, duration, cost; filters.
  await page.getByRole('link', { name: 'Runs' }).first().click();
  const table = page.getByRole('table', { name: 'Runs' });
  await expect(table.getByRole('row', { name: /succeeded.*Tess.*manual.*\$0\.01/ })).toBeVisible();
  await page.getByLabel('Status').selectOption('failed');
  await expect(page.getByText('No runs match these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(table.getByRole('row')).toHaveCount(2);
});

/** The README's picture: the dashboard of the demo company while its agents work. */
test('board screenshot for the README', async ({ signedIn: page }) => {
  await page.getByRole('button', { name: /Start the demo company/ }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByText('Live')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByText(/running/i).first()).toBeVisible({ timeout: 60_000 });
  await page.waitForTimeout(4000);
  await dismissNotifications(page);
  mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
  await page.screenshot({ path: path.join(ROOT, 'docs/screenshot.png') });
  await shot(page, 'runs-07-dashboard-demo');
});
