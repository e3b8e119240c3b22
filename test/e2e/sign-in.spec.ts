import { test, expect, shot } from './fixtures.js';

/**
 * Signing in once: the printed link signs the browser in through the session cookie, a second tab
 * and a reload stay signed in, "Sign out" ends it everywhere, and a revoked session lands on the
 * sign-in page with a reason instead of a broken page.
 */
test('the login link signs the browser in for every tab until "Sign out"', async ({ signedIn: page, board, context }) => {
  await expect(page.getByRole('heading', { name: 'Welcome to Headcount' })).toBeVisible();
  // The code left the address bar; the token never reached the page's storage.
  expect(page.url()).not.toContain('code=');
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }))).not.toContain(board.token);
  const cookies = await context.cookies(board.url);
  expect(cookies.find((c) => c.name === 'headcount_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  expect(await page.evaluate(() => document.cookie)).toBe('');

  await board.api('POST', '/api/companies', { name: 'Acme Robotics' });
  const second = await context.newPage();
  await second.goto(board.url);
  await expect(second.getByRole('combobox', { name: 'Company' })).toBeVisible();
  await second.reload();
  await expect(second.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await shot(second, 'sign-in-second-tab');

  await second.getByRole('button', { name: 'Sign out' }).click();
  await expect(second.getByRole('heading', { name: 'Sign in to the board' })).toBeVisible();
  await expect(second.getByRole('alert')).toHaveText('You signed out.');
  // The first tab's next request is refused: it shows the sign-in page with the reason.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to the board' })).toBeVisible();
  await shot(page, 'sign-in-signed-out');

  // Pasting the board token signs in again.
  await page.getByLabel('Or paste the board token').fill(board.token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('combobox', { name: 'Company' })).toBeVisible();
});

test('a session ended elsewhere returns the open page to sign-in with the reason', async ({ signedIn: page, board, context }) => {
  await board.api('POST', '/api/companies', { name: 'Acme Robotics' });
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Company' })).toBeVisible();
  // The session ends on the server while this page still holds its cookie (as when it expires, or
  // is signed out from another browser profile): signing out from this page itself would clear the
  // cookie too, and which of "no cookie" and "ended session" the next request met would be a race.
  const session = (await context.cookies(board.url)).find((c) => c.name === 'headcount_session');
  expect(session).toBeDefined();
  const ended = await fetch(`${board.url}/api/board/session`, {
    method: 'DELETE',
    headers: { cookie: `headcount_session=${session!.value}`, origin: new URL(board.url).origin },
  });
  expect(ended.status).toBe(204);
  expect((await context.cookies(board.url)).some((c) => c.name === 'headcount_session')).toBe(true);
  // Any next request (navigating to another page, or the board's own polling, whichever comes
  // first) is a 401 naming the ended session.
  await page.evaluate(() => {
    location.hash = '#/agents';
  });
  await expect(page.getByRole('heading', { name: 'Sign in to the board' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Your board session has ended');
  await shot(page, 'sign-in-after-401');
});
