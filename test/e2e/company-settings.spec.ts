import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, shot } from './fixtures.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs/screenshots');

/** The usual test screenshot, plus a copy for the README under docs/screenshots. */
async function docShot(page: Page, name: string): Promise<void> {
  await shot(page, name);
  mkdirSync(DOCS, { recursive: true });
  await page.screenshot({ path: path.join(DOCS, `${name}.png`), fullPage: true });
}

interface Company { id: string; name: string; status: string; budgetMonthlyCents: number; defaultAdapterType: string | null; description: string }

test('company settings: rename, budget, default adapter, archive and delete behind the typed name', async ({ signedIn: page, board }) => {
  const acme = await board.api<Company>('POST', '/api/companies', { name: 'Acme' });
  await board.api('POST', '/api/companies', { name: 'Keeper' });
  await page.goto(`${board.url}/#/settings?tab=company`);
  await page.reload();
  const form = page.getByRole('form', { name: 'Company' });
  await expect(form.getByLabel('Name')).toHaveValue('Acme');
  await form.getByLabel('Name').fill('Acme Robotics');
  await form.getByLabel('Description').fill('Robots that sweep floors.');
  await form.getByLabel('Default adapter').selectOption('process');
  await form.getByLabel('Monthly budget (USD)').fill('seven');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter dollars')).toBeVisible();
  await form.getByLabel('Monthly budget (USD)').fill('750');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Company saved')).toBeVisible();
  expect(await board.api<Company>('GET', `/api/companies/${acme.id}`)).toMatchObject({ name: 'Acme Robotics', description: 'Robots that sweep floors.', budgetMonthlyCents: 75_000, defaultAdapterType: 'process' });
  await expect(page.locator('#company-switcher')).toContainText('Acme Robotics');
  await expect(page.getByRole('form', { name: 'Brand-voice guide' })).toBeVisible();
  await docShot(page, 'company-settings');

  // Archive: the button stays asleep until the name is typed exactly.
  await page.getByRole('button', { name: 'Archive company' }).click();
  const dialog = page.getByRole('dialog', { name: 'Archive Acme Robotics?' });
  const confirm = dialog.getByRole('button', { name: 'Archive company' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type Acme Robotics to confirm').fill('Acme');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Type Acme Robotics to confirm').fill('Acme Robotics');
  await docShot(page, 'company-archive-confirm');
  await confirm.click();
  await expect(page.getByText('Acme Robotics archived')).toBeVisible();
  expect((await board.api<Company>('GET', `/api/companies/${acme.id}`)).status).toBe('archived');
  await expect(page.locator('#company-switcher')).not.toContainText('Acme Robotics');

  // The archived company is listed under Keeper's settings, and can be deleted there, also by its typed name.
  await page.goto(`${board.url}/#/settings?tab=company`);
  const archived = page.getByRole('list', { name: 'Archived companies' });
  await expect(archived.getByText('Acme Robotics')).toBeVisible();
  await archived.getByRole('button', { name: 'Delete' }).click();
  const del = page.getByRole('dialog', { name: 'Delete Acme Robotics for good?' });
  await expect(del.getByRole('button', { name: 'Delete company' })).toBeDisabled();
  await del.getByLabel('Type Acme Robotics to confirm').fill('Acme Robotics');
  await del.getByRole('button', { name: 'Delete company' }).click();
  await expect(page.getByText('Company deleted')).toBeVisible();
  const all = await board.api<Company[]>('GET', '/api/companies?includeArchived=true');
  expect(all.map((c) => c.name)).toEqual(['Keeper']);
});

test('edit an agent: name, title, role, manager, budget and heartbeat schedule', async ({ signedIn: page, board }) => {
  const company = await board.api<Company>('POST', '/api/companies', { name: 'Initech' });
  const agentBody = (name: string, role: string) => ({ name, role, adapterType: 'process', adapterConfig: { command: 'echo' } });
  const ceo = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, agentBody('Bill', 'ceo'));
  const dev = await board.api<{ id: string }>('POST', `/api/companies/${company.id}/agents`, agentBody('Pete', 'engineer'));
  await page.goto(`${board.url}/#/agents/${dev.id}`);
  await page.reload();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Pete' });
  await dialog.getByLabel('Name').fill('Peter');
  await dialog.getByLabel('Title').fill('Staff Engineer');
  await dialog.getByLabel('Role').fill('backend');
  await dialog.getByLabel('Reports to').selectOption(ceo.id);
  await dialog.getByLabel('Monthly budget (USD)').fill('42.50');
  await dialog.getByLabel('Wake on a schedule').check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('A schedule needs an interval')).toBeVisible();
  await dialog.getByLabel('Every (minutes)').fill('30');
  await docShot(page, 'agent-edit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Agent saved')).toBeVisible();
  await expect(page.getByRole('heading', { name: /Peter/ })).toBeVisible();
  expect(await board.api('GET', `/api/agents/${dev.id}`)).toMatchObject({ name: 'Peter', title: 'Staff Engineer', role: 'backend', reportsTo: ceo.id, budgetMonthlyCents: 4250, adapterType: 'process' });
  expect(await board.api('GET', `/api/agents/${dev.id}/heartbeat-settings`)).toMatchObject({ enabled: true, intervalSec: 1800 });
});

test('the keychain warning explains the risk and stays dismissed after a reload', async ({ signedIn: page, board }) => {
  const status = await board.api<{ keyProvider: { kind: string; warning: string | null } }>('GET', '/api/system/status');
  test.skip(status.keyProvider.warning === null, 'the OS keychain holds the master key on this machine: nothing to warn about');
  await board.api('POST', '/api/companies', { name: 'Umbrella' });
  await page.reload();
  const banner = page.getByRole('status', { name: 'Master key warning' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(status.keyProvider.kind === 'file' ? 'anyone who can read that file and the database can read every secret' : 'master key');
  await docShot(page, 'keychain-warning');
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Umbrella' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Master key warning' })).toBeHidden();
});

test('a list of 450 issues pages through the API cursor and scrolls to the last one', async ({ signedIn: page, board }) => {
  const company = await board.api<Company>('POST', '/api/companies', { name: 'Long List' });
  const created: { identifier: string; title: string }[] = [];
  // 450 creations at a few at a time: the API is on loopback, the order of creation is the list's order.
  for (let n = 1; n <= 450; n += 10) {
    created.push(...(await Promise.all(Array.from({ length: 10 }, (_, k) => board.api<{ identifier: string; title: string }>('POST', `/api/companies/${company.id}/issues`, { title: `Chore ${String(n + k).padStart(3, '0')}` })))));
  }
  const listed: string[] = [];
  for (let cursor: string | null = null; ; ) {
    const q = `limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const pageOf: { items: { identifier: string }[]; nextCursor: string | null } = await board.api('GET', `/api/companies/${company.id}/issues?${q}`);
    listed.push(...pageOf.items.map((i) => i.identifier));
    if (!(cursor = pageOf.nextCursor)) break;
  }
  expect(listed).toHaveLength(450);
  const last = listed.at(-1)!;

  await page.goto(`${board.url}/#/issues?view=list`);
  await page.reload();
  const table = page.getByRole('table', { name: 'Issues' });
  await expect(table.getByRole('row').nth(1)).toContainText(listed[0]!);
  // Only the rows in view are in the page, not the whole list.
  expect(await table.getByRole('row').count()).toBeLessThan(100);
  const scroller = page.locator('.virtual-table');
  const lastRow = table.getByRole("row", { name: new RegExp(`^${last} `) });
  for (let i = 0; i < 60 && !(await lastRow.isVisible()); i++) {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.waitForTimeout(150);
  }
  await expect(lastRow).toBeVisible();
  await expect(page.locator('.virtual-table tr[aria-rowindex="451"]')).toBeVisible();
  expect(await table.getByRole('row').count()).toBeLessThan(100);
  await docShot(page, 'issues-long-list');
});
