import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot, SCREENSHOTS } from './fixtures.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

// The demo's minutes become about half a minute (the server the fixture starts inherits this).
const previousPace = process.env.HEADCOUNT_DEMO_PACE;
test.beforeAll(() => {
  process.env.HEADCOUNT_DEMO_PACE = '0.1';
});
test.afterAll(() => {
  if (previousPace === undefined) delete process.env.HEADCOUNT_DEMO_PACE;
  else process.env.HEADCOUNT_DEMO_PACE = previousPace;
});

function keep(name: string): void {
  mkdirSync(path.join(ROOT, 'docs/screenshots'), { recursive: true });
  copyFileSync(path.join(SCREENSHOTS, `${name}.png`), path.join(ROOT, 'docs/screenshots', `${name}.png`));
}

/**
 * A founder's first hour on a fresh data home, as the README tells it: the demo company at work,
 * then their own company with a Claude Code CEO hired through the form, an issue given to it, found
 * again with Ctrl+K, and its timeline showing the run it caused.
 */
test('the first hour: demo alive, a real company, a Claude Code agent from the form, Ctrl+K, a timeline with a run', async ({ signedIn: page }) => {
  test.setTimeout(240_000);

  // 1. The demo lives: an approval, a question, a hire, a failed run retried, all as they happen.
  await expect(page.getByRole('heading', { name: 'Welcome to Headcount' })).toBeVisible();
  await shot(page, 'first-hour-01-welcome');
  keep('first-hour-01-welcome');
  await page.getByRole('button', { name: /Start the demo company/ }).click();
  await expect(page.getByRole('heading', { name: 'Demo Co' })).toBeVisible();
  const needsYou = page.getByRole('list', { name: 'Needs you' });
  await expect(needsYou).toContainText('Strategy: Demo Co: the first month', { timeout: 60_000 });
  await expect(needsYou).toContainText('Who should Demo Co serve first?', { timeout: 60_000 });
  await expect(needsYou).toContainText('Hire Dana', { timeout: 60_000 });
  await page.getByRole('link', { name: 'Runs' }).click();
  const runs = page.getByRole('table', { name: 'Runs' });
  await expect(runs.getByRole('row').filter({ hasText: 'Ben' }).filter({ hasText: 'failed' })).toHaveCount(1, { timeout: 90_000 });
  await expect(runs.getByRole('row').filter({ hasText: 'Ben' }).filter({ hasText: 'succeeded' }).filter({ hasText: 'Mention' })).toHaveCount(1, { timeout: 90_000 });
  await shot(page, 'first-hour-02-demo-runs');
  keep('first-hour-02-demo-runs');

  // 2. The founder's own company, from the company switcher.
  await page.locator('#company-switcher').selectOption({ label: '+ New company…' });
  await page.getByRole('button', { name: /Set up my company/ }).click();
  await page.getByLabel('Company name').fill('Quillworks');
  await page.getByLabel('What does it do?').fill('Bookbinding tools for small studios.');
  await page.getByLabel('Monthly budget (USD)').fill('40');
  await page.getByRole('button', { name: 'Create company' }).click();

  // 3. Its CEO runs with Claude Code, set up through the form: a model picked from the list.
  await expect(page.getByRole('heading', { name: 'Your CEO agent' })).toBeVisible();
  await page.getByLabel('CEO name').fill('Mara');
  await page.getByRole('radio', { name: /Claude Code/ }).click();
  const model = page.getByLabel('Model', { exact: true });
  await expect(model.locator('option', { hasText: 'Sonnet (latest)' })).toHaveCount(1);
  await model.selectOption({ label: 'Sonnet (latest) (sonnet)' });
  await shot(page, 'first-hour-03-ceo-form');
  keep('first-hour-03-ceo-form');
  await page.getByRole('button', { name: 'Create CEO' }).click();
  await expect(page.getByRole('heading', { name: 'Quillworks' })).toBeVisible();

  // 4. An issue for her: the assignment wakes her at once. Claude Code is not installed on this
  // machine, so the run fails, and says why, on the issue's timeline.
  await page.getByRole('link', { name: 'Issues' }).click();
  await page.getByRole('button', { name: 'New issue' }).first().click();
  const newIssue = page.getByRole('dialog', { name: 'New issue' });
  await newIssue.getByLabel('Title *').fill('Price the awl kit');
  await newIssue.getByLabel('Description').fill('Three tiers; compare with the two shops we admire.');
  await newIssue.getByLabel('Assignee').selectOption({ label: 'Mara' });
  await newIssue.getByRole('button', { name: 'Create issue' }).click();
  await expect(page.getByRole('heading', { name: 'Price the awl kit' })).toBeVisible();

  // 5. Found again from anywhere with Ctrl+K.
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: 'Command palette' });
  await expect(box).toBeFocused();
  await box.fill('awl');
  await expect(page.getByRole('option', { name: /Price the awl kit/ })).toBeVisible();
  await shot(page, 'first-hour-04-palette');
  keep('first-hour-04-palette');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Price the awl kit' })).toBeVisible();

  // 6. Its timeline: created, assigned, and the run it caused, with its error and Retry.
  const timeline = page.getByRole('list', { name: 'Timeline' });
  await expect(timeline.getByText('Mara').first()).toBeVisible();
  await expect(timeline.getByText('failed').first()).toBeVisible({ timeout: 30_000 });
  await expect(timeline.getByRole('button', { name: 'Retry' })).toBeVisible();
  await shot(page, 'first-hour-05-timeline');
  keep('first-hour-05-timeline');
});
