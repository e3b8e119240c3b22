import { afterEach, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import path from 'node:path';
import { startCore, tempHome, type TestCore } from '../../helpers/core.js';
import { fileKeyProvider } from '../../../main/core/secrets/master-key.js';
import { companyWithAgent, createRoutine, firings, manualClock, routineCore, tick } from './helpers.js';

const open: TestCore[] = [];
let home: string | undefined;
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

async function core(clock: ReturnType<typeof manualClock>) {
  const c = await routineCore(clock, home);
  open.push(c);
  return c;
}

const ROUTINE_CORE = path.resolve(import.meta.dirname, '../../fixtures/routine-core.mjs');

/** Runs one scheduler pass in a separate process (the built core); resolves with its exit. */
function tickInProcess(home: string, at: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ROUTINE_CORE, home, at], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('exactly one issue per slot', () => {
  it('kill -9 of the core between recording the firing and inserting its issue: the restart creates exactly one issue', async () => {
    home = tempHome();
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    const first = await startCore({ home, clock, keyProvider: fileKeyProvider(home), heartbeats: false, routines: false, sequences: false });
    const { companyId, agentId } = await companyWithAgent(first);
    const r = await createRoutine(first, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' } });
    await first.close();

    // Another process (the built core) fires the 09:00 slot and is SIGKILLed before the issue insert.
    const child = spawnSync(process.execPath, [ROUTINE_CORE, home, '2026-06-01T09:00:30.000Z', 'crash'], { encoding: 'utf8', timeout: 60_000 });
    expect(child.signal, child.stderr).toBe('SIGKILL');
    const sqlite = new Database(path.join(home, 'service.db'), { readonly: true });
    try {
      expect(sqlite.prepare('SELECT slot_key, outcome, issue_id FROM routine_firings').all()).toEqual([{ slot_key: '2026-06-01T09:00', outcome: 'pending', issue_id: null }]);
      expect(sqlite.prepare('SELECT count(*) AS n FROM issues').get()).toEqual({ n: 0 });
    } finally {
      sqlite.close();
    }

    clock.set('2026-06-01T09:01:00.000Z');
    const second = await startCore({ home, clock, keyProvider: fileKeyProvider(home), heartbeats: false, routines: false, sequences: false });
    open.push(second);
    tick(second);
    tick(second);
    const fs = await firings(second, r.id);
    expect(fs).toMatchObject([{ outcome: 'issue_created', slotKey: '2026-06-01T09:00' }]);
    expect((await second.api('GET', `/api/companies/${companyId}/issues`)).body.items.map((i: any) => i.id)).toEqual([fs[0].issueId]);
  });


  it('a crash between recording the firing and inserting its issue: the restart creates exactly one issue', async () => {
    home = tempHome();
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    const first = await core(clock);
    const { companyId, agentId } = await companyWithAgent(first);
    const r = await createRoutine(first, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' } });
    first.core.services.routineScheduler.hooks.beforeIssueInsert = () => {
      throw new Error('simulated crash after the firing was recorded');
    };
    clock.set('2026-06-01T09:00:30.000Z');
    tick(first);
    expect(await firings(first, r.id)).toMatchObject([{ outcome: 'pending', issueId: null }]);
    expect((await first.api('GET', `/api/companies/${companyId}/issues`)).body.items).toHaveLength(0);
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await core(clock);
    tick(second);
    tick(second);
    const fs = await firings(second, r.id);
    expect(fs).toHaveLength(1);
    expect(fs[0]).toMatchObject({ outcome: 'issue_created', slotKey: '2026-06-01T09:00' });
    const issues = (await second.api('GET', `/api/companies/${companyId}/issues`)).body.items;
    expect(issues.map((i: any) => i.id)).toEqual([fs[0].issueId]);
  });

  it('the core finishes pending firings when it starts', async () => {
    home = tempHome();
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    const first = await core(clock);
    const { companyId, agentId } = await companyWithAgent(first);
    const r = await createRoutine(first, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' } });
    first.core.services.routineScheduler.hooks.beforeIssueInsert = () => {
      throw new Error('simulated crash');
    };
    clock.set('2026-06-01T09:00:30.000Z');
    tick(first);
    await first.close();
    open.splice(0);
    // routines on: start() runs a first pass by itself.
    const second = await startCore({ clock, heartbeats: false, sequences: false, home });
    open.push(second);
    for (let i = 0; i < 100 && (await firings(second, r.id))[0].outcome === 'pending'; i++) await new Promise((res) => setTimeout(res, 20));
    expect(await firings(second, r.id)).toMatchObject([{ outcome: 'issue_created' }]);
  });

  it('two processes on one data home, racing for the same slot, fire it once', async () => {
    home = tempHome();
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    const setup = await startCore({ home, clock, keyProvider: fileKeyProvider(home), heartbeats: false, routines: false, sequences: false });
    const { companyId, agentId } = await companyWithAgent(setup);
    const r = await createRoutine(setup, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' }, concurrency: 'always' });
    await setup.close();
    const results = await Promise.all([tickInProcess(home, '2026-06-01T09:00:10.000Z'), tickInProcess(home, '2026-06-01T09:00:10.000Z')]);
    expect(results.map((x) => x.code), results.map((x) => x.out).join('\n')).toEqual([0, 0]);
    const claimed = results.map((x) => JSON.parse(x.out.trim().split('\n').pop()!).claimed as number);
    expect(claimed.sort()).toEqual([0, 1]);
    const sqlite = new Database(path.join(home, 'service.db'), { readonly: true });
    try {
      expect(sqlite.prepare('SELECT routine_id, slot_key, outcome FROM routine_firings').all()).toEqual([{ routine_id: r.id, slot_key: '2026-06-01T09:00', outcome: 'issue_created' }]);
      expect(sqlite.prepare('SELECT count(*) AS n FROM issues').get()).toEqual({ n: 1 });
    } finally {
      sqlite.close();
    }
  });

  it('two cores on one data home fire a slot once', async () => {
    home = tempHome();
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    const a = await core(clock);
    const b = await core(clock);
    const { companyId, agentId } = await companyWithAgent(a);
    const r = await createRoutine(a, companyId, { title: 'Daily', assigneeAgentId: agentId, trigger: { kind: 'schedule', cron: '0 9 * * *', timezone: 'UTC' }, concurrency: 'always' });
    clock.set('2026-06-01T09:00:00.000Z');
    await Promise.all([Promise.resolve().then(() => tick(a)), Promise.resolve().then(() => tick(b))]);
    // The worst case: b evaluates with the mark from before a's pass (as if it read it first).
    const sqlite = new Database(path.join(home, 'service.db'));
    try {
      sqlite.prepare('UPDATE routines SET scheduled_through = ? WHERE id = ?').run('2026-06-01T08:00:00.000Z', r.id);
      tick(b);
      expect(await firings(b, r.id)).toHaveLength(1);
      expect((await b.api('GET', `/api/companies/${companyId}/issues`)).body.items).toHaveLength(1);
      // And the database itself refuses a second row for the slot, from any connection.
      expect(() =>
        sqlite
          .prepare("INSERT INTO routine_firings (id, company_id, routine_id, slot_key, slot_at, trigger, outcome, fired_at) VALUES ('x', ?, ?, '2026-06-01T09:00', '2026-06-01T09:00:00.000Z', 'schedule', 'pending', 'now')")
          .run(companyId, r.id),
      ).toThrow(/UNIQUE constraint failed: routine_firings.routine_id, routine_firings.slot_key/);
    } finally {
      sqlite.close();
    }
  });
});
