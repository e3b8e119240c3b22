import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/core.js';
import { CLI, rawRequest, requireBuiltCli, spawnServe, stopProcess, type ServeProcess } from './serve-process.js';
import { collectArrayPages } from '../../../main/core/kernel/array-pages.js';

const TOKEN = 'hcb_sigkill-token';
const CYCLES = 3;

let home: string;
let server: ServeProcess | undefined;

beforeAll(() => {
  requireBuiltCli();
  home = tempHome('headcount-sigkill-');
});
afterAll(async () => {
  await stopProcess(server);
  if (home) rmSync(home, { recursive: true, force: true });
});

function integrityOf(file: string): string {
  // Read-only: this connection neither checkpoints nor removes the WAL, so the restarted server
  // still has to recover it.
  const db = new Database(file, { readonly: true });
  try {
    return (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('; ');
  } finally {
    db.close();
  }
}

/** Every goal of the company, following the list's pages (it answers 200 at a time by default). */
async function listGoalIds(url: string, companyId: string): Promise<string[]> {
  const goals = await collectArrayPages<{ id: string }>(`/api/companies/${companyId}/goals`, async (next) => {
    const res = await rawRequest(url, 'GET', next, { token: TOKEN });
    expect(res.status, res.text).toBe(200);
    return { body: JSON.parse(res.text), link: (res.headers.link as string | undefined) ?? null };
  });
  return goals.map((g) => g.id);
}

describe('SIGKILL in the middle of writes', () => {
  it(`keeps every acknowledged write and a sound database across ${CYCLES} kill/restart cycles`, async () => {
    const env = { SERVICE_BOARD_TOKEN: TOKEN };
    server = await spawnServe(home, { env });
    const company = await rawRequest(server.url, 'POST', '/api/companies', { token: TOKEN, body: { name: 'Crashy' } });
    expect(company.status).toBe(201);
    const companyId = JSON.parse(company.text).id as string;
    const acknowledged: string[] = [];
    const dbFile = path.join(home, 'service.db');

    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const current = server;
      const killAfter = 200 + Math.floor(Math.random() * 600);
      let killed = false;
      let inFlight = 0;
      let ackedThisCycle = 0;
      let loopError: (Error & { code?: string }) | undefined;
      let firstAck = () => {};
      const acked = new Promise<void>((r) => (firstAck = r));
      // Sequential writes: at most one request is in flight when the kill lands.
      const loop = (async () => {
        for (let i = 0; ; i++) {
          inFlight++;
          try {
            // Goals: a company holds at most 1,000 projects, which a fast machine could reach here.
            const res = await rawRequest(current.url, 'POST', `/api/companies/${companyId}/goals`, {
              token: TOKEN,
              body: { title: `cycle ${cycle} #${i}` },
            });
            expect(res.status, res.text).toBe(201);
            const goal = JSON.parse(res.text) as { id: string; title: string };
            expect(goal.title).toBe(`cycle ${cycle} #${i}`);
            acknowledged.push(goal.id);
            ackedThisCycle++;
            firstAck();
          } catch (err) {
            if (!killed) throw err;
            loopError = err as Error;
            return;
          } finally {
            inFlight--;
          }
        }
      })();
      // The clock starts once the loop is writing, so a slow machine still kills mid-loop.
      await Promise.race([acked, loop]);
      await new Promise((r) => setTimeout(r, killAfter));
      killed = true;
      current.child.kill('SIGKILL');
      const exit = await current.exited;
      await loop;
      expect(exit.signal, `cycle ${cycle}`).toBe('SIGKILL');
      expect(inFlight).toBe(0);
      // The loop ended on the kill (connection refused/reset), not on a server error.
      expect(['ECONNREFUSED', 'ECONNRESET', 'EPIPE'], `cycle ${cycle}: ${loopError?.message}`).toContain(loopError?.code);
      expect(ackedThisCycle, `cycle ${cycle}: killed after ${killAfter} ms`).toBeGreaterThan(0);

      // Killed without a checkpoint: the WAL is left behind with the latest commits in it.
      expect(existsSync(dbFile)).toBe(true);
      expect(statSync(`${dbFile}-wal`).size, `cycle ${cycle}`).toBeGreaterThan(0);
      expect(integrityOf(dbFile), `cycle ${cycle}`).toBe('ok');
      expect(statSync(`${dbFile}-wal`).size, `cycle ${cycle}`).toBeGreaterThan(0);

      server = await spawnServe(home, { env });
      const ids = await listGoalIds(server.url, companyId);
      const present = new Set(ids);
      const missing = acknowledged.filter((id) => !present.has(id));
      expect(missing, `cycle ${cycle} (killed after ${killAfter} ms): acknowledged writes lost`).toEqual([]);
      // Only the one request in flight at each kill may have committed without an answer.
      expect(ids.length - acknowledged.length).toBeGreaterThanOrEqual(0);
      expect(ids.length - acknowledged.length).toBeLessThanOrEqual(cycle);
      // Sound after the server's own recovery too (a WAL reader beside the running server).
      expect(integrityOf(dbFile), `cycle ${cycle} after restart`).toBe('ok');
      // And the last acknowledged goal reads back individually.
      const last = acknowledged[acknowledged.length - 1]!;
      const one = await rawRequest(server.url, 'GET', `/api/goals/${last}`, { token: TOKEN });
      expect(one.status, one.text).toBe(200);
    }

    // Once stopped cleanly, doctor finds the crashed-and-recovered home sound.
    const final = server;
    final.child.kill('SIGTERM');
    expect(await final.exited).toEqual({ code: 0, signal: null });
    const doctor = spawnSync(process.execPath, [CLI, 'doctor', '--json'], { env: { ...process.env, SERVICE_HOME: home }, encoding: 'utf8' });
    expect(doctor.status, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout);
    expect(report.database).toMatchObject({ exists: true, integrity: 'ok' });
    expect(report.ok).toBe(true);
  });
});
