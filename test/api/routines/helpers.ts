import type { Clock } from '../../../main/core/kernel/clock.js';
import { createAgent, createCompany, startCore, type TestCore } from '../../helpers/core.js';

/** A clock the test moves by hand. */
export function manualClock(start: string): Clock & { set(iso: string | Date): void; advance(ms: number): void } {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set: (iso) => (now = new Date(iso)),
    advance: (ms) => (now = new Date(now.getTime() + ms)),
  };
}

export const HOUR = 3600_000;

/** A core with the heartbeat engine and the routine interval off: the test ticks the scheduler. */
export async function routineCore(clock: Clock, home?: string): Promise<TestCore> {
  return startCore({ clock, heartbeats: false, routines: false, sequences: false, ...(home ? { home } : {}) });
}

export async function companyWithAgent(t: TestCore): Promise<{ companyId: string; agentId: string }> {
  const companyId = await createCompany(t);
  const agent = await createAgent(t, companyId);
  return { companyId, agentId: agent.id };
}

export async function createRoutine(t: TestCore, companyId: string, body: Record<string, unknown>): Promise<any> {
  const res = await t.api('POST', `/api/companies/${companyId}/routines`, { body });
  if (res.status !== 201) throw new Error(`create routine: ${res.status} ${res.text}`);
  return res.body;
}

export async function firings(t: TestCore, routineId: string): Promise<any[]> {
  const res = await t.api('GET', `/api/routines/${routineId}/firings?limit=200`);
  if (res.status !== 200) throw new Error(`firings: ${res.status} ${res.text}`);
  return res.body;
}

export const tick = (t: TestCore) => t.core.services.routineScheduler.tick();
