#!/usr/bin/env node
// The last step of `npm test`: the board's Playwright tests in the system's Chromium
// (playwright.config.ts). A machine with nothing but Node and npm has no Chromium and this project
// downloads no browser, so there the step says what to install and passes; under CI=true a missing
// browser fails the run instead (.ci/run installs Debian's chromium).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const browser = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(browser)) {
  const line = `Playwright tests not run: no Chromium at ${browser} (install it, e.g. \`sudo apt-get install chromium\`, or point CHROMIUM_PATH at a Chromium or Chrome binary)`;
  if (process.env.CI === 'true') {
    console.error(line);
    process.exit(1);
  }
  console.log(line);
  process.exit(0);
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const playwright = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'playwright.cmd' : 'playwright');
const res = spawnSync(playwright, ['test', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
process.exit(res.status ?? 1);
