import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
export const FAKE_AGENT = path.join(ROOT, 'test/fixtures/fake-agent.mjs');
export const SCREENSHOTS = path.join(ROOT, 'test-results/screenshots');

export interface Board {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The one-time login link `serve` printed. */
  loginLink: string;
  home: string;
  token: string;
  /** Board-token API call, for setup and assertions beside the UI. */
  api<T = unknown>(method: string, urlPath: string, body?: unknown): Promise<T>;
  /** stderr of the server so far (for failure messages). */
  stderr(): string;
}

/** The test runner's environment minus a board token it may carry: the server makes its own. */
function serveEnv(home: string): NodeJS.ProcessEnv {
  // Every answer is also checked against its schema, as in the API suites (main/core/http/serializer.ts).
  const env: NodeJS.ProcessEnv = { ...process.env, SERVICE_HOME: home, HEADCOUNT_CHECK_RESPONSES: '1' };
  delete env.SERVICE_BOARD_TOKEN;
  return env;
}

/** Starts `serve` from dist/ on a free port and a fresh data home; resolves once both lines are out. */
async function startServe(): Promise<{ board: Board; child: ChildProcess }> {
  const home = mkdtempSync(path.join(tmpdir(), 'headcount-e2e-'));
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/main/cli/headcount.bundle.mjs'), 'serve', '--port', '0'], {
    env: serveEnv(home),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = await new Promise<[string, string]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)\nboard: (\S+)\n/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve([m[1]!, m[2]!]);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  });
  const [url, loginLink] = lines;
  const token = readFileSync(path.join(home, 'board-token'), 'utf8').trim();
  const api = async <T,>(method: string, urlPath: string, body?: unknown): Promise<T> => {
    const res = await fetch(url + urlPath, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : null,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return { child, board: { url, loginLink, home, token, api, stderr: () => stderr } };
}

async function stopServe(child: ChildProcess, home: string): Promise<void> {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  rmSync(home, { recursive: true, force: true });
}

/** Saves a full-page screenshot as test-results/screenshots/<name>.png (look at them). */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/**
 * Dismisses the notifications on screen before a picture. A live company keeps raising and
 * retiring them, so the set is re-read after every click, and a notification that is gone before
 * its click needs no dismissing.
 */
export async function dismissNotifications(page: Page): Promise<void> {
  const dismiss = page.getByRole('button', { name: 'Dismiss notification' });
  for (let i = 0; i < 20 && (await dismiss.count()) > 0; i++) {
    await dismiss.first().click({ timeout: 2_000 }).catch(() => {});
  }
}

/**
 * `board`: a fresh server per test. `signedIn`: a page that opened the one-time login link, so
 * the app holds the board token the way a browser user gets it.
 */
export const test = base.extend<{ board: Board; signedIn: Page }>({
  // Playwright reads the fixtures a fixture needs from its first parameter's pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  board: async ({}, use) => {
    const { board, child } = await startServe();
    try {
      await use(board);
    } finally {
      await stopServe(child, board.home);
    }
  },
  signedIn: async ({ page, board }, use) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(board.loginLink);
    await use(page);
    expect(errors, 'uncaught errors in the page').toEqual([]);
  },
});

export { expect };
