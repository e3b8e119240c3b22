import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';
import type { Clock } from '../../../main/core/kernel/clock.js';
import { seedCompany } from './seed.js';

/**
 * Issue 14, point 4: an imported company starts nothing. The exported company has everything that
 * would make its agents run (a schedule due every minute, an assigned open issue, an unread
 * mention); the importing core's clock is moved past a minute (and an hour) and its engine ticked
 * at each step, with a scheduled control agent in another company proving the ticks happened.
 */

let t = Date.now();
const clock: Clock = { now: () => new Date(t) };
let source: TestCore;
let target: TestCore;
let archive: Buffer;
let controlAgent: string;

async function ok<T = any>(p: Promise<{ status: number; text: string; body: T }>): Promise<T> {
  const res = await p;
  if (res.status >= 300) throw new Error(`${res.status} ${res.text}`);
  return res.body;
}

const sqlite = () => target.core.database.sqlite;
const lastScheduled = (agentId: string) => (sqlite().prepare('SELECT last_scheduled_at AS at FROM agent_heartbeat_settings WHERE agent_id = ?').get(agentId) as { at: string | null }).at;
const runsOf = (companyId: string) => (sqlite().prepare('SELECT count(*) AS n FROM heartbeat_runs WHERE company_id = ?').get(companyId) as { n: number }).n;

/** Moves the clock and ticks the engine until the control agent's schedule has seen the new time. */
async function advance(seconds: number): Promise<void> {
  t += seconds * 1000;
  const want = new Date(t).toISOString();
  for (let i = 0; i < 400 && lastScheduled(controlAgent) !== want; i++) {
    target.core.services.engine.poke();
    await new Promise((r) => setTimeout(r, 25));
  }
  expect(lastScheduled(controlAgent), 'the engine ticked at the new time').toBe(want);
}

beforeAll(async () => {
  source = await startCore();
  const seeded = await seedCompany(source);
  // Everything that would wake the Ceo: a schedule due every minute and an open issue assigned to it.
  await ok(source.api('PUT', `/api/agents/${seeded.ceo.id}/heartbeat-settings`, { body: { intervalSec: 60, enabled: true, skipWhenIdle: false } }));
  await ok(source.api('PATCH', `/api/issues/${seeded.parent.id}`, { body: { assigneeAgentId: seeded.ceo.id } }));
  const res = await fetch(`${source.url}/api/companies/${seeded.companyId}/export`, { headers: { authorization: `Bearer ${source.boardToken}` } });
  archive = Buffer.from(await res.arrayBuffer());

  target = await startCore({ clock });
  const control = await createCompany(target, 'Control');
  controlAgent = (await createAgent(target, control, { name: 'Control' })).id;
  // Due every second and idle: each tick records the time it scheduled at, and starts no process.
  await ok(target.api('PUT', `/api/agents/${controlAgent}/heartbeat-settings`, { body: { intervalSec: 1, enabled: true } }));
}, 90_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
});

describe('an imported company', () => {
  it('arrives with its agents paused and their schedules off, and no run starts over the next minute or hour', async () => {
    const form = new FormData();
    form.append('file', new Blob([archive], { type: 'application/gzip' }), 'company.tar.gz');
    const imported = await ok(target.api('POST', '/api/companies/import', { raw: form }));
    const companyId = imported.companyId as string;
    const runsAtImport = runsOf(companyId);
    const wakesAtImport = sqlite().prepare('SELECT count(*) AS n FROM wake_requests WHERE company_id = ?').get(companyId);

    const agents = await ok(target.api('GET', `/api/companies/${companyId}/agents`));
    expect(agents.length).toBe(2);
    for (const a of agents) {
      expect(a.status, a.name).toBe('paused');
      const settings = await ok(target.api('GET', `/api/agents/${a.id}/heartbeat-settings`));
      expect(settings.enabled, a.name).toBe(false);
    }
    const ceo = agents.find((a: { name: string }) => a.name === 'Ceo');
    // The schedule's interval is kept for the board to turn back on.
    expect((await ok(target.api('GET', `/api/agents/${ceo.id}/heartbeat-settings`))).intervalSec).toBe(60);

    for (const step of [1, 30, 30, 61, 3600]) await advance(step);
    expect(runsOf(companyId)).toBe(runsAtImport);
    expect(sqlite().prepare("SELECT count(*) AS n FROM heartbeat_runs WHERE company_id = ? AND status IN ('queued', 'running')").get(companyId)).toEqual({ n: 0 });
    expect(sqlite().prepare('SELECT count(*) AS n FROM wake_requests WHERE company_id = ?').get(companyId)).toEqual(wakesAtImport);
    expect(sqlite().prepare("SELECT count(*) AS n FROM wake_requests WHERE company_id = ? AND status = 'pending'").get(companyId)).toEqual({ n: 0 });

    // The board turns the Ceo on: then its schedule runs it.
    await ok(target.api('POST', `/api/agents/${ceo.id}/resume`, { body: {} }));
    await ok(target.api('PUT', `/api/agents/${ceo.id}/heartbeat-settings`, { body: { intervalSec: 60, enabled: true } }));
    await advance(61);
    for (let i = 0; i < 400 && runsOf(companyId) === runsAtImport; i++) await new Promise((r) => setTimeout(r, 25));
    expect(runsOf(companyId)).toBeGreaterThan(runsAtImport);
  });
});
