// The board's first paint on a large company (issue 17): a headless Chromium, signed in with the
// board token's session cookie, opens the board of a server on an existing data home (for example the one `node bench/scale.mjs --keep` leaves:
// 100,000 issues, 1,000,000 comments, 100 agents) and the time is taken from navigation start to
// the first contentful paint, to the dashboard showing the company's name and its recent activity,
// and to the Issues board showing the first cards of its Todo and Done columns. Several rounds, each in a fresh browser context.
//   node bench/first-paint.mjs --home <data home> [--rounds 5] [--browser /usr/bin/chromium]
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { machine, requireBuild, startServer, stopServer, writeResult } from './lib.mjs';

const { values } = parseArgs({
  options: {
    home: { type: 'string' },
    rounds: { type: 'string', default: '5' },
    browser: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
if (!values.home || !existsSync(values.home)) {
  console.error('--home <data home> is required (node bench/scale.mjs --keep prints one)');
  process.exit(1);
}
requireBuild();
const server = await startServer(values.home, { SERVICE_BOARD_TOKEN: 'hcb_bench-first-paint' });
const board = { authorization: 'Bearer hcb_bench-first-paint' };
const [company] = await (await fetch(`${server.url}/api/companies`, { headers: board })).json();
const browser = await chromium.launch({ executablePath: values.browser, args: ['--no-sandbox', '--disable-gpu'] });

const rounds = [];
for (let i = 0; i < Number(values.rounds); i++) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // Signed in as a returning founder is: the session cookie set, then the board opened.
  const signIn = await context.request.post(`${server.url}/api/board/login`, { data: { token: 'hcb_bench-first-paint' }, headers: { origin: server.url } });
  if (!signIn.ok()) throw new Error(`sign-in refused: ${signIn.status()} ${await signIn.text()}`);
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByRole('heading', { name: company.name }).waitFor();
  const dashboardMs = await page.evaluate(() => performance.now());
  await page.getByRole('list', { name: 'Recent activity' }).getByRole('listitem').first().waitFor();
  const activityMs = await page.evaluate(() => performance.now());
  const fcpMs = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  const before = await page.evaluate(() => performance.now());
  await page.getByRole('link', { name: 'Issues', exact: true }).first().click();
  // The board: every status column shows its first issues (Todo and Done included).
  for (const column of [/^Todo: /, /^Done: /]) await page.getByRole('region', { name: column }).getByRole('link').first().waitFor();
  const issuesMs = (await page.evaluate(() => performance.now())) - before;
  rounds.push({ fcpMs, dashboardMs, activityMs, issuesPageMs: issuesMs });
  console.log(`round ${i + 1}: first contentful paint ${fcpMs?.toFixed(0)} ms, company heading ${dashboardMs.toFixed(0)} ms, recent activity ${activityMs.toFixed(0)} ms, Issues board ${issuesMs.toFixed(0)} ms`);
  await context.close();
}
await browser.close();
await stopServer(server);

const median = (key) => {
  const xs = rounds.map((r) => r[key]).filter((x) => x !== null).sort((a, b) => a - b);
  return Math.round(xs[Math.floor(xs.length / 2)]);
};
const summary = { fcpMs: median('fcpMs'), dashboardMs: median('dashboardMs'), activityMs: median('activityMs'), issuesPageMs: median('issuesPageMs') };
console.log('median:', summary);
const file = writeResult('first-paint', { machine: machine(), home: values.home, company: company.name, rounds, median: summary });
console.log(`written to ${file}`);
