import type { Page, Request } from '@playwright/test';
import { test, expect } from './fixtures.js';

/**
 * What one live event costs: the dashboard and an issue page are open (two tabs, each following
 * the company's event stream); one comment is posted through the API with the board token, and
 * the API requests the two tabs make because of it are counted. The comment must appear on the
 * issue page and in the dashboard's activity, with at most 3 requests in all (the coarse mapping
 * refetched every issue query and list of the company).
 */
const isApiCall = (r: Request) => new URL(r.url()).pathname.startsWith('/api/') && !new URL(r.url()).pathname.endsWith('/events');

/**
 * Counts a page's API requests, and says how many are still in flight. In-flight requests are
 * kept by identity, so a request that started before tracking began and finishes after it is
 * not subtracted from a count it was never added to.
 */
function track(page: Page) {
  const open = new Set<Request>();
  const state = {
    started: [] as string[],
    get inFlight() {
      return open.size;
    },
  };
  page.on('request', (r) => {
    if (!isApiCall(r)) return;
    state.started.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`);
    open.add(r);
  });
  const done = (r: Request) => open.delete(r);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return state;
}

/** Waits until the page has had no API request in flight for several checks in a row. */
async function settled(state: { inFlight: number }) {
  let quiet = 0;
  await expect
    .poll(() => (state.inFlight === 0 ? ++quiet : (quiet = 0)), { intervals: [250], timeout: 30_000 })
    .toBeGreaterThanOrEqual(6);
}

test('one comment event costs at most 3 requests across the dashboard and the issue page', async ({ signedIn: dashboard, board, context }) => {
  const company = await board.api<{ id: string }>('POST', '/api/companies', { name: 'Initech' });
  const issue = await board.api<{ id: string; identifier: string }>('POST', `/api/companies/${company.id}/issues`, { title: 'Ship the TPS report cover sheet', status: 'todo' });
  await board.api('POST', `/api/companies/${company.id}/issues`, { title: 'Order a red stapler', status: 'blocked' });

  await dashboard.goto(board.url);
  await expect(dashboard.getByRole('heading', { name: 'Initech' })).toBeVisible();
  const issuePage = await context.newPage();
  await issuePage.goto(`${board.url}/#/issues/${issue.identifier}`);
  await expect(issuePage.getByRole('heading', { name: /Ship the TPS report cover sheet/ })).toBeVisible();
  for (const page of [dashboard, issuePage]) await expect(page.getByRole('status', { name: 'Live updates: Live' })).toBeVisible();

  const onDashboard = track(dashboard);
  const onIssue = track(issuePage);
  await settled(onDashboard);
  await settled(onIssue);
  onDashboard.started.length = 0;
  onIssue.started.length = 0;

  await board.api('POST', `/api/issues/${issue.id}/comments`, { body: 'Did you get the memo about the new cover sheets?' });

  // The update a user would see, on both tabs.
  await expect(issuePage.getByText('Did you get the memo about the new cover sheets?')).toBeVisible();
  await expect(dashboard.getByRole('list', { name: 'Recent activity' })).toContainText(`Comment on ${issue.identifier}`);
  await settled(onDashboard);
  await settled(onIssue);

  const requests = [...onDashboard.started.map((r) => `dashboard: ${r}`), ...onIssue.started.map((r) => `issue page: ${r}`)];
  console.log(`requests caused by one issue.commented event: ${requests.length}\n  ${requests.join('\n  ')}`);
  expect(requests.length, requests.join('\n')).toBeLessThanOrEqual(3);

  // A status change moves the issue between lists: every list, the issue's page and the activity
  // refetch (still no agent, cost, inbox or comment query), and both tabs show it.
  onDashboard.started.length = 0;
  onIssue.started.length = 0;
  await board.api('PATCH', `/api/issues/${issue.id}`, { status: 'blocked' });
  await expect(dashboard.getByText('2 blocked')).toBeVisible();
  await expect(issuePage.getByLabel('Status')).toHaveValue('blocked');
  await settled(onDashboard);
  await settled(onIssue);
  const moved = [...onDashboard.started.map((r) => `dashboard: ${r}`), ...onIssue.started.map((r) => `issue page: ${r}`)];
  console.log(`requests caused by one issue.status_changed event: ${moved.length}\n  ${moved.join('\n  ')}`);
  expect(moved.filter((r) => /\/(agents|costs|inbox|comments|runs)\b/.test(r)), moved.join('\n')).toEqual([]);
});
