import { test, expect, shot } from './fixtures.js';

/** Ctrl+K finds an issue by a word of its comment (server-side search) and opens it. */
test('the command palette finds issues, agents and pages', async ({ signedIn: page, board }) => {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Acme Robotics' });
  const issue = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${company.id}/issues`, { title: 'Calibrate the gripper', description: 'Torque drifts.' });
  await board.api('POST', `/api/issues/${issue.id}/comments`, { body: 'The servo firmware needs an update first.' });
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Company' })).toBeVisible();

  await page.keyboard.press('Control+k');
  const box = page.getByRole('combobox', { name: 'Command palette' });
  await expect(box).toBeFocused();
  await box.fill('firmware');
  const hit = page.getByRole('option', { name: /Calibrate the gripper/ });
  await expect(hit).toBeVisible();
  await expect(hit.locator('mark')).toHaveText('firmware');
  await shot(page, 'palette-search');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`#/issues/${issue.id}`));

  await page.keyboard.press('Control+k');
  await page.getByRole('combobox', { name: 'Command palette' }).fill('costs');
  await page.getByRole('option', { name: 'Costs' }).click();
  await expect(page).toHaveURL(/#\/costs/);
});
