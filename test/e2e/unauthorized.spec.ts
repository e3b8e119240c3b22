import { test, expect, shot } from './fixtures.js';

/**
 * A 401 from any request forgets the credential and returns the window to the sign-in page with
 * the reason, instead of leaving a board whose every request fails.
 */
test('a forged session cookie: the next action lands on sign-in with the reason, and the session is signed out', async ({ signedIn: page, board, context }) => {
  await board.api('POST', '/api/companies', { name: 'Acme Robotics' });
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Company' })).toBeVisible();
  const signOuts: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/board/session' && r.method() === 'DELETE') signOuts.push(r.url());
  });

  await context.addCookies([{ name: 'headcount_session', value: 'forged-secret', url: board.url, httpOnly: true, sameSite: 'Strict' }]);
  // The next action: going to another page. (A background request, such as the live stream's
  // reconnect, may meet the 401 first and take the window to sign-in before any click could land.)
  await page.evaluate(() => {
    location.hash = '#/agents';
  });

  await expect(page.getByRole('heading', { name: 'Sign in to the board' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Your board session has ended');
  await expect(page.getByRole('combobox', { name: 'Company' })).toHaveCount(0);
  expect(signOuts).toHaveLength(1);
  await shot(page, 'unauthorized-forged-cookie');
  // A reload does not get the board back with that cookie either.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to the board' })).toBeVisible();
});

test("a forged desktop token: the window shows sign-in with the token's refusal", async ({ page, board }) => {
  await board.api('POST', '/api/companies', { name: 'Acme Robotics' });
  // What the Electron preload exposes, with a token the server does not know.
  await page.addInitScript((apiBaseUrl) => {
    (window as unknown as { headcount: unknown }).headcount = { apiBaseUrl, token: 'forged-board-token' };
  }, board.url);
  const sessionCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/board/session') sessionCalls.push(r.method());
  });
  await page.goto(board.url);
  await expect(page.getByRole('heading', { name: 'Sign in to the board' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText("This window's board token was refused: This token is not valid");
  // Nothing to sign out: the window's token is dropped with its connection.
  expect(sessionCalls).toEqual([]);
});
