import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { createFakeAgent, eventually, fakeLines, openEvents, procState, readLog, waitForRunId, waitGone } from './helpers.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

/** Invokes the agent and returns its run once the fake agent printed `line` (or the run ended). */
async function invokeAndWaitFor(agentId: string, line: string, count = 1): Promise<any> {
  const invoked = await t.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} });
  expect(invoked.status).toBe(202);
  const run = await eventually(async () => (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agentId}`)).body.items[0], 5000, 'the run');
  await eventually(async () => ((await fakeLines(t, run.id)).filter((l) => l.type === line).length >= count ? true : undefined), 5000, `"${line}" from the fake agent`);
  return (await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('heartbeat fault injection', () => {
  it.each([false, true])('a hanging child (ignoring SIGTERM: %s) ends timed_out within timeout + grace + 1 s', async (ignoreTerm) => {
    const agent = await createFakeAgent(t, companyId, 'Hanger', { FAKE_MODE: 'hang', ...(ignoreTerm ? { FAKE_IGNORE_TERM: '1' } : {}) }, { timeoutSec: 1, graceMs: 500 });
    const running = await invokeAndWaitFor(agent.id, 'hanging');
    const run = await waitForRunId(t, running.id);
    expect(run).toMatchObject({ status: 'timed_out', timedOut: true });
    const took = Date.parse(run.finishedAt) - Date.parse(run.startedAt);
    expect(took).toBeGreaterThanOrEqual(1000);
    expect(took).toBeLessThanOrEqual(1000 + 500 + 1000);
    expect([null, 'Z']).toContain(procState(running.pid));
    if (ignoreTerm) {
      expect(run.signal).toBe('SIGKILL');
      expect(took).toBeGreaterThanOrEqual(1500);
      expect((await fakeLines(t, run.id)).some((l) => l.type === 'ignoring')).toBe(true);
    }
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('error');
  });

  it.each([false, true])('cancelling a child that spawned grandchildren (pty: %s) ends cancelled and leaves no survivor', async (pty) => {
    // Without the sandbox: the pids the fake agent reports are host pids only outside a PID namespace
    // (test/api/confinement covers the same with the sandbox on).
    const agent = await createFakeAgent(t, companyId, 'Forker', { FAKE_MODE: 'grandchildren' }, { pty, sandbox: false });
    const running = await invokeAndWaitFor(agent.id, 'spawned', 2);
    const pids: number[] = [running.pid, ...(await fakeLines(t, running.id)).filter((l) => l.type === 'spawned').map((l) => l.pid)];
    expect(pids).toHaveLength(3);
    for (const pid of pids) expect(procState(pid)).not.toBeNull();
    const cancel = await t.api('POST', `/api/heartbeat-runs/${running.id}/cancel`, { body: {} });
    expect(cancel.status).toBe(200);
    const run = await waitForRunId(t, running.id);
    expect(run).toMatchObject({ status: 'cancelled', cancelReason: 'cancelled by the board' });
    for (const pid of pids) expect([null, 'Z']).toContain(await waitGone(pid));
    expect((await t.api('POST', `/api/heartbeat-runs/${running.id}/cancel`, { body: {} })).body.code).toBe('run_finished');
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('idle');
  });

  it('a child killed from outside (kill -9) ends failed with signal SIGKILL', async () => {
    const agent = await createFakeAgent(t, companyId, 'Victim', { FAKE_MODE: 'hang' });
    const running = await invokeAndWaitFor(agent.id, 'hanging');
    expect(running).toMatchObject({ status: 'running', pid: expect.any(Number) });
    process.kill(running.pid, 'SIGKILL');
    const run = await waitForRunId(t, running.id);
    expect(run).toMatchObject({ status: 'failed', signal: 'SIGKILL', exitCode: null, timedOut: false, errorCode: 'killed_by_signal' });
  });

  it('a nonzero exit is failed with errorCode nonzero_exit', async () => {
    const agent = await createFakeAgent(t, companyId, 'Failer', { FAKE_MODE: 'fail' });
    const running = await invokeAndWaitFor(agent.id, 'error');
    const run = await waitForRunId(t, running.id);
    expect(run).toMatchObject({ status: 'failed', exitCode: 2, errorCode: 'nonzero_exit', signal: null });
    expect((await t.api('GET', `/api/agents/${agent.id}`)).body.status).toBe('error');
  });

  it.each([false, true])('a secret echoed by the child (pty: %s) appears in no transcript file, API response, event or command', async (pty) => {
    const secretValue = 'sk-live-9f8e7d6c5b4a-TOPSECRET';
    const secret = await t.api('POST', `/api/companies/${companyId}/secrets`, { body: { name: 'FAKE_KEY', value: secretValue } });
    expect(secret.status).toBe(201);
    const stream = await openEvents(t, companyId);
    expect(stream.res.status).toBe(200);
    const agent = await createFakeAgent(t, companyId, 'Leaker', {
      FAKE_MODE: 'echo-secret',
      FAKE_SECRET: { type: 'secret_ref', secretId: secret.body.id, version: 'latest' },
    }, { pty });
    const invoked = await t.api('POST', `/api/agents/${agent.id}/heartbeat/invoke`, { body: {} });
    const run = await eventually(async () => {
      const r = (await t.api('GET', `/api/companies/${companyId}/heartbeat-runs?agentId=${agent.id}`)).body.items[0];
      return r && !['queued', 'running'].includes(r.status) ? r : undefined;
    });
    expect(run.status).toBe('succeeded');
    // The child did print it, on both streams: redaction, not silence, keeps it out.
    const log = await readLog(t, run.id);
    const stdout = log.filter((r) => r.stream === 'stdout').map((r) => r.data).join('');
    expect(stdout).toContain('"value":"[redacted]"');
    expect(stdout).toContain('split: [redacted] :end');
    // Under a terminal both streams arrive as one.
    expect(pty ? stdout : log.filter((r) => r.stream === 'stderr').map((r) => r.data).join('')).toContain('stderr has it too: [redacted]');
    // Raw files on disk.
    const files = filesUnder(path.join(t.home, 'runs'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readFileSync(f, 'utf8')).not.toContain(secretValue);
    // The event stream, once the run's log and end have been streamed.
    await eventually(() => (stream.raw().includes('[redacted]') && stream.events.some((e) => e.event.startsWith('run.') && e.raw.includes('succeeded')) ? true : undefined), 5000, 'run events');
    stream.close();
    expect(stream.raw()).not.toContain(secretValue);
    // Every API response about the run, the agent and the secret.
    const responses = [
      invoked,
      await t.api('GET', `/api/heartbeat-runs/${run.id}`),
      await t.api('GET', `/api/companies/${companyId}/heartbeat-runs`),
      await t.api('GET', `/api/heartbeat-runs/${run.id}/log?offset=0`),
      await t.api('GET', `/api/agents/${agent.id}`),
      await t.api('GET', `/api/companies/${companyId}/secrets`),
      await t.api('GET', `/api/secrets/${secret.body.id}`),
      secret,
    ];
    for (const r of responses) {
      expect(r.status).toBeLessThan(300);
      expect(r.text).not.toContain(secretValue);
    }
    const full = (await t.api('GET', `/api/heartbeat-runs/${run.id}`)).body;
    expect(full.command).toEqual(expect.stringContaining('fake-agent.mjs'));
    expect(full.command).not.toContain(secretValue);
    // Nor in any row of any table (secret versions hold only ciphertext).
    const db = t.core.database.sqlite;
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      const dump = JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all(), (_k, v: unknown) => (Buffer.isBuffer(v) ? v.toString('latin1') : v));
      expect(dump.includes(secretValue), `table ${name}`).toBe(false);
    }
  });
});
