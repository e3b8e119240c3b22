import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';
import { eventually, fakeLines, waitForRunId } from '../heartbeat/helpers.js';
import { sandboxAvailable } from './sandbox.js';

const HOSTILE = path.resolve(import.meta.dirname, '../../fixtures/hostile-agent.mjs');
const BOARD_TOKEN = `hcb_confinement-${randomUUID()}`;
const MARKER = `marker-${randomUUID()}`;

let t: TestCore | undefined;
const temps: string[] = [];
const saved: Record<string, string | undefined> = {};
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Live processes (host view) whose environment carries `needle`. */
function processesWith(needle: string): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * A core whose own environment holds the board token and a marker, like a server started from a
 * founder's shell, with decoys where the data home keeps what an agent must never read.
 */
async function hostileCore() {
  for (const k of ['SERVICE_BOARD_TOKEN', 'HEADCOUNT_TEST_MARKER']) saved[k] = process.env[k];
  process.env.SERVICE_BOARD_TOKEN = BOARD_TOKEN;
  process.env.HEADCOUNT_TEST_MARKER = MARKER;
  t = await startCore({ boardToken: BOARD_TOKEN });
  temps.push(t.home);
  const home = t.home;
  writeFileSync(path.join(home, 'master-key'), 'decoy-master-key');
  writeFileSync(path.join(home, 'board-token'), BOARD_TOKEN);
  mkdirSync(path.join(home, 'companies', 'other-company'), { recursive: true });
  writeFileSync(path.join(home, 'companies', 'other-company', 'plan.md'), 'not yours');
  mkdirSync(path.join(home, 'attachments'), { recursive: true });
  writeFileSync(path.join(home, 'attachments', 'a.bin'), 'attachment');
  const companyId = await createCompany(t);
  return { t, home, companyId };
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

async function hostileAgent(core: TestCore, companyId: string, name: string, cwd: string, env: Record<string, string>, config: Record<string, unknown> = {}) {
  const res = await core.api('POST', `/api/companies/${companyId}/agents`, {
    body: { name, adapterType: 'process', adapterConfig: { command: process.execPath, args: [HOSTILE], cwd, env, timeoutSec: 60, graceMs: 500, ...config } },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const invoke = async (core: TestCore, agentId: string) => {
  expect((await core.api('POST', `/api/agents/${agentId}/heartbeat/invoke`, { body: {} })).status).toBe(202);
  return eventually(async () => (await core.api('GET', `/api/heartbeat-runs?agentId=${agentId}`)).body.items?.[0] ?? (await runsOf(core, agentId))[0], 10_000, 'the run');
};
const runsOf = async (core: TestCore, agentId: string): Promise<any[]> => {
  const companies = (await core.api('GET', '/api/companies')).body;
  const out: any[] = [];
  for (const c of companies.items ?? companies) out.push(...((await core.api('GET', `/api/companies/${c.id}/heartbeat-runs?agentId=${agentId}`)).body.items ?? []));
  return out;
};

describe.skipIf(!sandboxAvailable())('a hostile agent inside the sandbox', () => {
  it.each([false, true])('reads no data-home file, sees no board token by any name, writes only its cwd and scratch, leaves no process (pty: %s)', async (pty) => {
    const { t: core, home, companyId } = await hostileCore();
    // A first run leaves a transcript under runs/: the second agent must not read it.
    const cwd = tempDir('headcount-hostile-cwd-');
    const tag = `tag-${randomUUID()}`;
    const outside = path.join(os.homedir(), `.headcount-hostile-${randomUUID()}`);
    const runsDir = path.join(home, 'runs');
    const env = {
      HOSTILE_READ: JSON.stringify([
        path.join(home, 'master-key'),
        path.join(home, 'service.db'),
        path.join(home, 'service.db-wal'),
        path.join(home, 'board-token'),
        runsDir,
        path.join(home, 'attachments', 'a.bin'),
        path.join(home, 'companies'),
        path.join(home, 'companies', 'other-company', 'plan.md'),
        home,
      ]),
      HOSTILE_WRITE: JSON.stringify([path.join(cwd, 'mine.txt'), outside, path.join(home, 'planted'), '/usr/local/planted', '/etc/planted']),
      HOSTILE_NEEDLES: Buffer.from(JSON.stringify([BOARD_TOKEN, MARKER, 'SERVICE_HOME='])).toString('base64'),
      HOSTILE_TAG: tag,
    };
    const warmup = await hostileAgent(core, companyId, 'Warmup', cwd, { HOSTILE_READ: '[]' });
    const first = await invoke(core, warmup.id);
    await waitForRunId(core, first.id);
    expect(readdirSync(runsDir).length).toBeGreaterThan(0);

    const agent = await hostileAgent(core, companyId, 'Mallory', cwd, env, { pty });
    const started = await invoke(core, agent.id);
    const run = await waitForRunId(core, started.id);
    // The run ends when its main process exits, although a setsid grandchild held its output.
    expect(run).toMatchObject({ status: 'succeeded', exitCode: 0 });
    const lines = await fakeLines(core, run.id);
    expect(lines.map((l) => l.type)).toContain('bye');

    const seen = lines.find((l) => l.type === 'env').env as Record<string, string>;
    expect(Object.keys(seen).filter((k) => k === 'SERVICE_BOARD_TOKEN' || k === 'SERVICE_HOME' || k === 'HEADCOUNT_TEST_MARKER')).toEqual([]);
    expect(JSON.stringify(seen)).not.toContain(BOARD_TOKEN);
    expect(JSON.stringify(seen)).not.toContain(MARKER);
    expect(seen.SERVICE_RUN_ID).toBe(run.id);
    expect(seen.DBUS_SESSION_BUS_ADDRESS).toBeUndefined();

    const reads = lines.filter((l) => l.type === 'read');
    expect(reads).toHaveLength(9);
    for (const r of reads) {
      // Folders of the data home show up empty (a tmpfs), files are not there at all.
      if (r.ok) expect({ path: r.path, content: r.content }).toEqual({ path: r.path, content: [] });
      else expect(r.code).toBe('ENOENT');
    }
    const procs = lines.find((l) => l.type === 'procs');
    expect(procs.found).toEqual([]);

    const writes = Object.fromEntries(lines.filter((l) => l.type === 'write').map((l) => [l.path, l.ok ? 'ok' : l.code]));
    expect(writes[path.join(cwd, 'mine.txt')]).toBe('ok');
    for (const p of [outside, path.join(home, 'planted'), '/usr/local/planted', '/etc/planted']) expect({ p, result: writes[p] }).not.toEqual({ p, result: 'ok' });
    expect(readFileSync(path.join(cwd, 'mine.txt'), 'utf8')).toBe('hostile');
    expect(readdirSync(home)).not.toContain('planted');

    // Neither the agent nor its setsid grandchild outlived the run.
    expect(processesWith(tag)).toEqual([]);
  }, 60_000);

  it.each(['cancel', 'timeout'] as const)('a hanging agent with a setsid grandchild deaf to SIGTERM leaves nothing behind on %s', async (how) => {
    const { t: core, companyId } = await hostileCore();
    const cwd = tempDir('headcount-hostile-cwd-');
    const tag = `tag-${randomUUID()}`;
    const agent = await hostileAgent(core, companyId, 'Sticky', cwd, { HOSTILE_MODE: 'hang', HOSTILE_TAG: tag }, how === 'timeout' ? { timeoutSec: 2 } : {});
    const started = await invoke(core, agent.id);
    await eventually(async () => ((await fakeLines(core, started.id)).some((l) => l.type === 'spawned') ? true : undefined), 10_000, 'the grandchild');
    expect(processesWith(tag).length).toBeGreaterThanOrEqual(2);
    if (how === 'cancel') expect((await core.api('POST', `/api/heartbeat-runs/${started.id}/cancel`, { body: {} })).status).toBe(200);
    const run = await waitForRunId(core, started.id, undefined, 20_000);
    expect(run.status).toBe(how === 'cancel' ? 'cancelled' : 'timed_out');
    expect(processesWith(tag)).toEqual([]);
  }, 60_000);
});
