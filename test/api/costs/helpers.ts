import { expect } from 'vitest';
import type { Clock } from '../../../main/core/kernel/clock.js';
import type { RunLookup } from '../../../main/core/heartbeat/run-lookup.js';
import { budgetStop, type BudgetStop } from '../../../main/core/costs/budget-check.js';
import { startCore, type ApiResponse, type TestCore } from '../../helpers/core.js';

/** A clock the test sets by hand: budget windows are UTC months, so tests jump across them. */
export interface SettableClock extends Clock {
  set(iso: string): void;
  advance(ms: number): void;
}

export function settableClock(iso: string): SettableClock {
  let current = new Date(iso).getTime();
  return {
    now: () => new Date(current),
    set: (next) => {
      current = new Date(next).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}

/** A RunLookup spy: records every cancelRunsOf call the core makes. */
export function runsSpy(): RunLookup & { cancelled: [string, string][] } {
  const cancelled: [string, string][] = [];
  return { cancelled, isActive: () => false, activeRunAgent: () => null, cancelRunsOf: (agentId, reason) => void cancelled.push([agentId, reason]) };
}

export interface CostsCore {
  t: TestCore;
  clock: SettableClock;
  runs: ReturnType<typeof runsSpy>;
}

export async function startCostsCore(iso = '2025-03-10T12:00:00.000Z'): Promise<CostsCore> {
  const clock = settableClock(iso);
  const runs = runsSpy();
  const t = await startCore({ clock, runs });
  return { t, clock, runs };
}

export const costBody = (agentId: string, extra: Record<string, unknown> = {}) => ({
  agentId,
  provider: 'anthropic',
  model: 'claude-sonnet',
  inputTokens: 1000,
  outputTokens: 200,
  costCents: 1,
  ...extra,
});

export async function postCost(t: TestCore, companyId: string, body: Record<string, unknown>, token?: string): Promise<ApiResponse<any>> {
  return t.api('POST', `/api/companies/${companyId}/cost-events`, { body, ...(token ? { token } : {}) });
}

/** Posts a cost event that must succeed. */
export async function spend(t: TestCore, companyId: string, agentId: string, costCents: number, token?: string): Promise<any> {
  const res = await postCost(t, companyId, costBody(agentId, { costCents }), token);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Rows of a table, straight from the database file. */
export const rows = (t: TestCore, sql: string, ...params: unknown[]): any[] => t.core.database.sqlite.prepare(sql).all(...params);

export const actions = (t: TestCore, action: string): any[] =>
  rows(t, 'SELECT * FROM activity WHERE action = ? ORDER BY seq', action);

/** The heartbeat engine's question, asked against the core's own database and clock. */
export const stopOf = (c: CostsCore, companyId: string, agentId: string): BudgetStop | null =>
  budgetStop(c.t.core.database.db, companyId, agentId, c.clock.now());
