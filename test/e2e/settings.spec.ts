import { test, expect, shot } from './fixtures.js';

/** Settings: run cap and retention saved through the API, disk use, theme, and the shortcut registry with its help. */
test('settings: runs at once, retention, disk use, theme and keyboard shortcuts', async ({ signedIn: page, board }) => {
  await board.api('POST', '/api/companies', { name: 'Settings Co' });
  await page.goto(`${board.url}/#/settings`);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await page.getByLabel('Runs at once').fill('7');
  await page.getByLabel('Keep transcripts (days)').fill('14');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings saved')).toBeVisible();
  const saved = await board.api<{ maxConcurrentRuns: number; transcriptRetentionDays: number }>('GET', '/api/settings');
  expect(saved).toMatchObject({ maxConcurrentRuns: 7, transcriptRetentionDays: 14 });
  // Out of range: the field refuses it before anything is sent.
  await page.getByLabel('Runs at once').fill('100');
  await page.getByRole('button', { name: 'Save' }).click();
  expect(await page.getByLabel('Runs at once').evaluate((el) => (el as HTMLInputElement).validity.rangeOverflow)).toBe(true);
  expect((await board.api<{ maxConcurrentRuns: number }>('GET', '/api/settings')).maxConcurrentRuns).toBe(7);
  await page.getByLabel('Runs at once').fill('7');

  await expect(page.getByText('in the data folder')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Disk use' }).getByText('Database')).toBeVisible();

  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shot(page, 'settings-01-dark');
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  // The registry lists what is active; `?` opens the help; `g` then a letter navigates.
  const shortcuts = page.getByRole('region', { name: 'Keyboard shortcuts' });
  await expect(shortcuts.getByText('Go to Issues')).toBeVisible();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help.getByText('Show keyboard shortcuts')).toBeVisible();
  await shot(page, 'settings-02-shortcut-help');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('g');
  await page.keyboard.press('k');
  await expect(page.getByRole('heading', { name: 'Secrets' })).toBeVisible();
  await page.keyboard.press('g');
  await page.keyboard.press('s');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  // Typing in a field is not a shortcut.
  await page.getByLabel('Runs at once').press('g');
  await page.getByLabel('Runs at once').press('k');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
});
