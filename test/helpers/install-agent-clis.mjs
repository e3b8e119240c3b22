#!/usr/bin/env node
// Installs the pinned agent CLIs of test/agent-clis.json into a cache outside the repository, one
// npm prefix per CLI and version, so the real-CLI tests drive exactly these versions without making
// them dependencies of Headcount. Idempotent: a CLI whose prefix is complete is not touched again.
// Run by vitest's global setup and by CI before the tests (`node test/helpers/install-agent-clis.mjs`).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const pinned = JSON.parse(readFileSync(path.join(here, '..', 'agent-clis.json'), 'utf8')).clis;

export function cacheRoot() {
  return process.env.HEADCOUNT_AGENT_CLI_CACHE || path.join(os.homedir(), '.cache', 'headcount', 'agent-clis');
}

const prefixOf = (cli) => path.join(cacheRoot(), `${cli.package.replace('/', '+')}@${cli.version}`);
export const binOf = (cli) => path.join(prefixOf(cli), 'node_modules', '.bin', process.platform === 'win32' ? `${cli.bin}.cmd` : cli.bin);
// Written last: a prefix without it is a half-finished install and is redone.
const markerOf = (cli) => path.join(prefixOf(cli), 'installed.json');

function npmInstall(prefix, spec) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((resolve, reject) => {
    execFile(
      npm,
      ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', spec],
      { timeout: 10 * 60_000, maxBuffer: 16 * 1024 * 1024, shell: process.platform === 'win32' },
      (err, _stdout, stderr) => (err ? reject(new Error(`npm install ${spec} failed: ${stderr || err.message}`)) : resolve()),
    );
  });
}

async function installOne(cli) {
  if (existsSync(markerOf(cli)) && existsSync(binOf(cli))) return 'cached';
  const final = prefixOf(cli);
  const staging = `${final}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await npmInstall(staging, `${cli.package}@${cli.version}`);
  writeFileSync(path.join(staging, 'installed.json'), JSON.stringify({ ...cli, at: new Date().toISOString() }) + '\n');
  rmSync(final, { recursive: true, force: true });
  renameSync(staging, final);
  return 'installed';
}

/** Installs every pinned CLI that is missing, in parallel; resolves to a line per CLI. */
export async function installAgentClis() {
  mkdirSync(cacheRoot(), { recursive: true });
  const results = await Promise.allSettled(pinned.map(installOne));
  return results.map((r, i) => ({ cli: pinned[i], outcome: r.status === 'fulfilled' ? r.value : 'failed', error: r.status === 'rejected' ? String(r.reason?.message ?? r.reason) : undefined }));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const results = await installAgentClis();
  for (const r of results) console.log(`${r.cli.package}@${r.cli.version}: ${r.outcome}${r.error ? ` (${r.error.split('\n')[0]})` : ''}`);
  if (results.some((r) => r.outcome === 'failed')) process.exit(1);
}
