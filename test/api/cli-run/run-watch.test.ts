import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, waitForRun } from '../heartbeat/helpers.js';

const CLI = path.resolve(import.meta.dirname, '../../../dist/main/cli/headcount.bundle.mjs');

interface Cli {
  code: Promise<number | null>;
  stdout: () => string;
  stderr: () => string;
}

function cli(args: string[], env: Record<string, string> = {}): Cli {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, SERVICE_BOARD_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { code: new Promise((resolve) => child.on('close', (c) => resolve(c))), stdout: () => out, stderr: () => err };
}

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

const conn = () => ['--url', t.url, '--token', t.boardToken];

async function finishedRun(name: string, env: Record<string, unknown> = {}) {
  const agent = await createFakeAgent(t, companyId, name, env);
  const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: `Task of ${name}`, status: 'todo', assigneeAgentId: agent.id } })).body;
  await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: { issueId: issue.id } });
  const run = await waitForRun(t, companyId, agent.id);
  return { agent, issue, run };
}

describe('headcount run watch', () => {
  it('prints the transcript of a succeeded run (JSON lines compacted) and exits 0', async () => {
    const { run } = await finishedRun('Worker');
    expect(run.status).toBe('succeeded');
    const watch = cli(['run', 'watch', run.id, ...conn()]);
    expect(await watch.code).toBe(0);
    const out = watch.stdout();
    expect(out).toContain(`run ${run.id}`);
    expect(out).toContain('  │ me: status=200 name=Worker');
    expect(out).toContain('  │ checkout: status=200');
    expect(out).toContain('  │ result: ok=true');
    expect(out.trimEnd().split('\n').at(-1)).toBe(`run ${run.id} succeeded (exit 0)`);
    expect(watch.stderr()).toBe('');
  });

  it('exits 1 for a failed run, stderr lines with their own prefix', async () => {
    const { run } = await finishedRun('Breaker', { FAKE_MODE: 'echo-secret', FAKE_SECRET: 'not-a-secret' });
    expect(run.status).toBe('succeeded');
    const failed = (await finishedRun('Failer', { FAKE_MODE: 'fail' })).run;
    expect(failed.status).toBe('failed');
    const watch = cli(['run', 'watch', failed.id, ...conn()]);
    expect(await watch.code).toBe(1);
    expect(watch.stdout()).toContain('  │ error: something broke');
    expect(watch.stdout()).toMatch(new RegExp(`run ${failed.id} failed \\(exit 2`));

    const mixed = cli(['run', 'watch', run.id, ...conn()]);
    expect(await mixed.code).toBe(0);
    expect(mixed.stdout()).toContain('  ! stderr has it too:');
  });

  it('follows a live run and exits 1 when it is cancelled', async () => {
    const agent = await createFakeAgent(t, companyId, 'Sleeper', { FAKE_MODE: 'hang' });
    await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    const run = await waitForRun(t, companyId, agent.id, (r) => r.status === 'running');
    const watch = cli(['run', 'watch', run.id, ...conn()]);
    await until(() => watch.stdout().includes('hanging'), 'the live transcript');
    expect((await t.api('POST', `/api/heartbeat-runs/${run.id}/cancel`)).status).toBe(200);
    expect(await watch.code).toBe(1);
    expect(watch.stdout()).toContain('  │ init: runId=' + run.id);
    expect(watch.stdout()).toMatch(new RegExp(`run ${run.id} cancelled`));
  });

  it('reads the board token from SERVICE_BOARD_TOKEN, and explains an unknown run', async () => {
    const missing = cli(['run', 'watch', '00000000-0000-4000-8000-000000000000', '--url', t.url], { SERVICE_BOARD_TOKEN: t.boardToken });
    expect(await missing.code).toBe(1);
    expect(missing.stderr()).toMatch(/^headcount: GET \/api\/heartbeat-runs\/.*404/);
  });
});

describe('headcount heartbeat invoke', () => {
  it('prints the wake request id and, with --watch, follows the run to its end', async () => {
    const agent = await createFakeAgent(t, companyId, 'Invoked');
    // Unassigned, so that no assignment wake starts a run of its own before the invoke: the checkout assigns it.
    const issue = (await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Watch me', status: 'todo' } })).body;
    const invoke = cli(['heartbeat', 'invoke', agent.id, '--issue', issue.identifier, '--watch', ...conn()]);
    const code = await invoke.code;
    const out = invoke.stdout();
    expect(code, out + invoke.stderr()).toBe(0);
    const [, runId] = /^wake request [0-9a-f-]{36}\nrun ([0-9a-f-]{36}) queued\n/.exec(out) ?? [];
    expect(runId, out).toBeTruthy();
    expect(out).toContain('  │ done: status=200');
    expect(out).toContain(`run ${runId} succeeded (exit 0)\n`);
    expect(out).toMatch(/run [0-9a-f-]{36} succeeded \(exit 0\)\n$/);
    expect((await t.api('GET', `/api/issues/${issue.id}`)).body.status).toBe('done');
  });

  it('without --watch prints the wake request id and the run it queued', async () => {
    const agent = await createFakeAgent(t, companyId, 'Quick');
    const invoke = cli(['heartbeat', 'invoke', agent.id, ...conn()]);
    expect(await invoke.code).toBe(0);
    const [, runId] = /^wake request [0-9a-f-]{36}\nrun ([0-9a-f-]{36}) queued\n$/.exec(invoke.stdout()) ?? [];
    expect(runId, invoke.stdout()).toBeTruthy();
    expect((await t.api('GET', `/api/heartbeat-runs/${runId}`)).body.agentId).toBe(agent.id);
  });
});

describe('headcount run watch on a capped transcript', () => {
  it('prints the head, the truncation markers, then the kept tail up to the end', async () => {
    const limits = await t.api('PATCH', '/api/settings', { body: { limits: { transcriptMaxBytes: 1024 * 1024 } } });
    expect(limits.status).toBe(200);
    // ~4 MiB of JSON lines against a 1 MiB cap.
    const { run } = await finishedRun('Chatty', { FAKE_MODE: 'chatty', FAKE_LINES: '30000' });
    expect(run.status).toBe('succeeded');
    expect(run.transcriptBytes).toBeLessThanOrEqual(1024 * 1024);
    const watch = cli(['run', 'watch', run.id, ...conn()]);
    expect(await watch.code).toBe(0);
    const out = watch.stdout();
    expect(out).toContain('output truncated');
    const truncated = out.indexOf('output truncated');
    const dropped = out.indexOf('dropped here');
    expect(out.indexOf('│ text: ')).toBeLessThan(truncated);
    expect(truncated).toBeLessThan(dropped);
    // The kept tail follows the second marker, up to the run's end.
    expect(out.slice(dropped).match(/│ text: x+/g)!.length).toBeGreaterThan(1000);
    expect(out.trimEnd().endsWith('succeeded (exit 0)')).toBe(true);
  }, 60_000);
});
