import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/core.js';
import { CLI, requireBuiltCli, spawnServe, stopProcess, delay, type ServeProcess } from '../api/durability/serve-process.js';
import { call, hasTable, heldRunsReady, startHeldRuns, integrity, missingAcks, prng, processesOfRuns, randomOp, readDb, setupWorld, type Ack, type World } from './crash-workload.js';

/**
 * SIGKILL at random points of a mixed workload (issues, comments, documents, cost events,
 * checkouts, heartbeat runs of the fake agent CLI printing output and holding checkouts), then a
 * restart, CYCLES times. bench/crash-loop.mjs runs the same test with many more cycles.
 */
const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
const SEED = Number(process.env.CRASH_SEED ?? 20261122);
const CLIENTS = 3;
const TOKEN = 'hcb_crash-token';
const env = { SERVICE_BOARD_TOKEN: TOKEN };
// A loaded CI machine can take many seconds to import the built core.
const START_TIMEOUT_MS = 60_000;

let home: string;
let server: ServeProcess | undefined;
const summary = { seed: SEED, cycles: [] as Record<string, unknown>[] };

beforeAll(() => {
  requireBuiltCli();
  home = tempHome('headcount-crash-');
});
afterAll(async () => {
  await stopProcess(server);
  if (process.env.CRASH_RESULT) writeFileSync(process.env.CRASH_RESULT, JSON.stringify(summary, null, 2) + '\n');
  if (home) rmSync(home, { recursive: true, force: true });
});

async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await delay(50);
  }
}

describe('crash loop', () => {
  it(`keeps a sound, complete and unstuck home across ${CYCLES} SIGKILLs during a mixed workload (seed ${SEED})`, async () => {
    const dbFile = path.join(home, 'service.db');
    const rnd = prng(SEED);
    server = await spawnServe(home, { env, timeoutMs: START_TIMEOUT_MS });
    const world: World = await setupWorld(server.url, TOKEN);
    const acks: Ack[] = [];
    let op = 0;

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const current = server;
      // Every cycle has a run holding a checkout and a run with grandchildren in flight when the
      // kill lands (the random workload alone rarely has them running on a slow machine). They
      // start first, so the workload's own runs do not queue ahead of them.
      const held = await startHeldRuns(world, current.url);
      await until('held runs running', () => readDb(dbFile, (db) => heldRunsReady(db, held)), 60_000);
      let killed = false;
      const loops = Array.from({ length: CLIENTS }, async () => {
        while (!killed) {
          try {
            acks.push(...(await randomOp(world, current.url, rnd, ++op)));
          } catch (err) {
            if (killed) return;
            throw err;
          }
        }
      });
      const killAfter = 300 + Math.floor(rnd() * 1700);
      await Promise.race([delay(killAfter), ...loops]);
      killed = true;
      current.child.kill('SIGKILL');
      expect((await current.exited).signal).toBe('SIGKILL');
      await Promise.all(loops);

      // Before any restart: the file as the crash left it.
      expect(integrity(dbFile), `cycle ${cycle}`).toBe('ok');
      const stale = readDb(dbFile, (db) => db.prepare("SELECT id, status, pid, agent_id, task_issue_id FROM heartbeat_runs WHERE status IN ('queued', 'running')").all() as { id: string; status: string; pid: number | null; agent_id: string }[]);
      const staleIds = new Set(stale.map((r) => r.id));
      const orphansAtKill = processesOfRuns(new Set(stale.filter((r) => r.status === 'running').map((r) => r.id))).length;

      server = await spawnServe(home, { env, timeoutMs: START_TIMEOUT_MS });
      const url = server.url;
      // Recovery: every run of the dead server ends, and no process of theirs is left alive.
      await until('stale runs recovered', () =>
        readDb(dbFile, (db) => stale.every((r) => !['queued', 'running'].includes((db.prepare('SELECT status FROM heartbeat_runs WHERE id = ?').get(r.id) as { status: string }).status))),
      );
      await until('orphans of lost runs killed', () => processesOfRuns(staleIds).length === 0, 5_000);
      const missing = readDb(dbFile, (db) => missingAcks(db, acks));
      expect(missing, `cycle ${cycle}: acknowledged writes lost`).toEqual([]);
      for (const r of stale) {
        if (r.pid) expect(processesOfRuns(new Set([r.id])), `run ${r.id} pid ${r.pid}`).toEqual([]);
        const log = await call(url, 'GET', `/api/heartbeat-runs/${r.id}/log`, TOKEN);
        expect(log.status, `transcript of ${r.id}`).toBe(200);
      }
      // Checkouts held by runs that died are adoptable by their agent; none stays stuck.
      const runHeld = readDb(dbFile, (db) =>
        db.prepare('SELECT i.id, i.checkout_agent_id AS agent, i.checkout_run_id AS run FROM issues i WHERE i.checkout_run_id IS NOT NULL').all() as { id: string; agent: string; run: string }[],
      ).filter((h) => staleIds.has(h.run));
      expect(runHeld.map((h) => h.id), `cycle ${cycle}`).toContain(held.issueId);
      for (const h of runHeld) {
        const owner = [...world.runners, ...world.workers].find((a) => a.id === h.agent)!;
        const adopt = await call(url, 'POST', `/api/issues/${h.id}/checkout`, owner.key, { expectedStatuses: ['in_progress', 'todo', 'backlog', 'blocked', 'in_review'] });
        expect(adopt.status, `cycle ${cycle}: adopting ${h.id} of lost run ${h.run}: ${JSON.stringify(adopt.body)}`).toBe(200);
        expect((await call(url, 'POST', `/api/issues/${h.id}/release`, owner.key)).status).toBe(200);
      }
      // Checkouts taken by a key (no run) when the server died: their agent can still let them go.
      const keyHeld = readDb(dbFile, (db) => db.prepare('SELECT id, checkout_agent_id AS agent FROM issues WHERE checkout_agent_id IS NOT NULL AND checkout_run_id IS NULL').all() as { id: string; agent: string }[]);
      for (const h of keyHeld) {
        const owner = world.workers.find((a) => a.id === h.agent);
        if (!owner) continue;
        const released = await call(url, 'POST', `/api/issues/${h.id}/release`, owner.key);
        expect(released.status, `cycle ${cycle}: releasing ${h.id}: ${JSON.stringify(released.body)}`).toBe(200);
      }
      // A CRM send cut between its quota reservation and its outcome is finalized and refunded.
      const crmSending = await until('CRM attempts finalized', () => {
        const n = readDb(dbFile, (db) => (hasTable(db, 'crm_activities') ? (db.prepare("SELECT count(*) AS n FROM crm_activities WHERE status = 'sending'").get() as { n: number }).n : 0));
        return n === 0 ? { n } : false;
      });
      expect(crmSending.n).toBe(0);
      expect(integrity(dbFile), `cycle ${cycle} after restart`).toBe('ok');
      summary.cycles.push({ cycle, killAfterMs: killAfter, acknowledged: acks.length, staleRuns: stale.length, orphansAtKill, adoptedCheckouts: runHeld.length, releasedKeyCheckouts: keyHeld.length });
    }

    // Stopped cleanly at the end, doctor finds the home sound.
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    const doctor = spawnSync(process.execPath, [CLI, 'doctor', '--json'], { env: { ...process.env, SERVICE_HOME: home }, encoding: 'utf8' });
    expect(doctor.status, doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout).database.integrity).toBe('ok');
    // The loop did exercise what it claims to.
    expect(acks.length).toBeGreaterThan(CYCLES * 3);
    expect(summary.cycles.every((c) => (c.staleRuns as number) >= 2 && (c.orphansAtKill as number) > 0), JSON.stringify(summary.cycles)).toBe(true);
  }, 60_000 + CYCLES * 30_000);
});
