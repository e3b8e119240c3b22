import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests of the board UI in Debian's Chromium (CI installs it; Playwright's own browser
 * download is not used) against `serve` from dist/ — run `npm run build` first (`npm test` does).
 */
export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results/playwright-artifacts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // Every test boots its own server and agent processes; CI has two cores.
  workers: 1,
  fullyParallel: false,
  // Under CI a failed test runs once more and, if it then passes, is reported as flaky (by name, in
  // the list output and the JSON report) instead of failing the whole run; a test that fails twice
  // still fails. Locally a failure is never retried, so flakiness shows up where it is fixed.
  retries: process.env.CI === 'true' ? 1 : 0,
  // The JSON report is what .ci/run counts for the summary line.
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1360, height: 860 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
