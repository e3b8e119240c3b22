import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestCore } from '../../helpers/core.js';
import { eventually, waitForRunId } from '../heartbeat/helpers.js';

/** git in a test repository, with a fixed identity and none of the machine's config. */
export function sh(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Founder', '-c', 'user.email=founder@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
  }).trim();
}

/**
 * A founder's repository with one commit on `main`, outside /tmp: the agent sandbox gives each run a
 * private /tmp, where the clone could not read the repository's objects.
 */
export function founderRepo(files: Record<string, string> = { 'README.md': '# app\n', 'shared.txt': 'one\n' }): string {
  const parent = path.join(os.homedir(), '.cache', 'headcount-tests');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(path.join(parent, 'founder-'));
  sh(dir, 'init', '-q', '-b', 'main');
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  sh(dir, 'add', '-A');
  sh(dir, 'commit', '-qm', 'initial');
  return dir;
}

/**
 * A `process` agent whose run is a shell script in the run's cwd; git gets an identity from the
 * environment so that `git commit` works without any config.
 */
export async function shellAgent(t: TestCore, companyId: string, name: string, script: string, extra: Record<string, unknown> = {}) {
  const res = await t.api('POST', `/api/companies/${companyId}/agents`, {
    body: {
      name,
      adapterType: 'process',
      adapterConfig: {
        command: '/bin/sh',
        args: ['-c', script],
        env: { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: `${name}@agents.test`, GIT_COMMITTER_NAME: name, GIT_COMMITTER_EMAIL: `${name}@agents.test`, GIT_CONFIG_GLOBAL: '/dev/null' },
        timeoutSec: 30,
        graceMs: 500,
        ...extra,
      },
    },
  });
  if (res.status !== 201) throw new Error(`create agent: ${res.status} ${res.text}`);
  return res.body as { id: string };
}

/** Invokes the agent on the issue and waits for that run to end. */
export async function runOn(t: TestCore, companyId: string, agentId: string, issueId: string): Promise<any> {
  const list = async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items as any[];
  const known = new Set((await list()).map((r) => r.id));
  const invoked = await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: { issueId } });
  if (invoked.status !== 202) throw new Error(`invoke: ${invoked.status} ${invoked.text}`);
  const run = await eventually(async () => (await list()).find((r) => !known.has(r.id)), 10_000, 'the run');
  return waitForRunId(t, run.id, undefined, 30_000);
}
