import type { MonthWindow } from './window.js';
import { monthWindow } from './window.js';
import { microToCents } from './money.js';
import { rollupMicro } from './rollups.js';
import type { Queryable } from '../context.js';

/**
 * Spend is read from the month's rollups (costs/rollups.ts), which every cost event updates in its
 * own transaction: summing the events grew with history (issue 17), a rollup row does not. A new
 * month starts at zero by itself, since rows are per month; the events stay the truth the rollups
 * are rebuilt from.
 */
export function agentSpendMicro(db: Queryable, agentId: string, w: MonthWindow): number {
  return rollupMicro(db, 'agent', agentId, w.month);
}

export function companySpendMicro(db: Queryable, companyId: string, w: MonthWindow): number {
  return rollupMicro(db, 'company', companyId, w.month);
}

/** One agent's spend in the current UTC month, in cents (the agent's `spentMonthlyCents`). */
export const monthlySpendOfAgent = (db: Queryable, agentId: string, now: Date): number =>
  microToCents(agentSpendMicro(db, agentId, monthWindow(now)));
