import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot, SCREENSHOTS, dismissNotifications } from './fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The server the fixture starts inherits this: the demo's minutes become about half a minute.
const previousPace = process.env.HEADCOUNT_DEMO_PACE;
test.beforeAll(() => {
  process.env.HEADCOUNT_DEMO_PACE = '0.1';
});
test.afterAll(() => {
  if (previousPace === undefined) delete process.env.HEADCOUNT_DEMO_PACE;
  else process.env.HEADCOUNT_DEMO_PACE = previousPace;
});

/** Keeps a screenshot for the README. */
function keep(name: string, as: string): void {
  mkdirSync(path.join(ROOT, 'docs/screenshots'), { recursive: true });
  copyFileSync(path.join(SCREENSHOTS, `${name}.png`), path.join(ROOT, 'docs/screenshots', as));
}

test('first run: the demo company lives — an approval, a question, a hire and a failed run retried, all on the board as they happen', async ({ signedIn: page }) => {
  test.setTimeout(180_000);
  await page.getByRole('button', { name: /Start the demo company/ }).click();
  await expect(page.getByRole('heading', { name: 'Demo Co' })).toBeVisible();

  // Nothing is reloaded: what waits on the founder arrives through the event stream.
  const needsYou = page.getByRole('list', { name: 'Needs you' });
  await expect(needsYou).toContainText('Strategy: Demo Co: the first month', { timeout: 60_000 });
  await expect(needsYou).toContainText('Who should Demo Co serve first?', { timeout: 60_000 });
  // Unanswered, the CEO goes ahead after its patience and asks for a hire.
  await expect(needsYou).toContainText('Hire Dana', { timeout: 60_000 });

  // Ben's first heartbeat fails; the CEO notices on its next heartbeat and asks him to retry.
  await page.getByRole('link', { name: 'Runs' }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByRole('row').filter({ hasText: 'Ben' }).filter({ hasText: 'failed' })).toHaveCount(1, { timeout: 90_000 });
  const retried = runs.getByRole('row').filter({ hasText: 'Ben' }).filter({ hasText: 'succeeded' }).filter({ hasText: 'Mention' });
  await expect(retried).toHaveCount(1, { timeout: 90_000 });
  await shot(page, 'demo-01-runs');

  await retried.click();
  await expect(page.getByText('Retrying after my failed heartbeat').first()).toBeVisible();
  await expect(page.getByText('● Bash(npm test)').first()).toBeVisible();
  await shot(page, 'demo-02-transcript');
  keep('demo-02-transcript', 'demo-transcript.png');

  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(needsYou).toContainText('Strategy: Demo Co: the first month');
  await expect(needsYou).toContainText('Who should Demo Co serve first?');
  await expect(needsYou).toContainText('Hire Dana');
  // The engineers' cost reports cross the company's 80% warning before the story ends.
  await expect(page.getByRole('list', { name: 'Recent activity' })).toContainText('reached 80% of its monthly budget', { timeout: 90_000 });
  await dismissNotifications(page);
  await shot(page, 'demo-03-dashboard');
  keep('demo-03-dashboard', 'demo-dashboard.png');
});

test('the company switcher opens the demo and switches to it', async ({ board, page }) => {
  await board.api('POST', '/api/companies', { name: 'Acme' });
  await page.goto(board.loginLink);
  const switcher = page.locator('#company-switcher');
  await expect(page.getByRole('heading', { name: 'Acme' })).toBeVisible();
  await switcher.selectOption({ label: '+ New company…' });
  await page.getByRole('button', { name: /Start the demo company/ }).click();
  await expect(page.getByRole('heading', { name: 'Demo Co' })).toBeVisible();
  await expect(switcher.locator('option:checked')).toHaveText('Demo Co');
});
