import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { costEvents } from './schema.js';
import { monthWindow, type MonthWindow } from './window.js';
import { microToCents } from './money.js';
import type { Queryable } from '../context.js';

/**
 * Spend is always summed from the cost events themselves (integer micro-cents), never kept in a
 * running counter: there is nothing to get out of step, and a new month starts at zero by itself.
 */
const total = sql<number>`coalesce(sum(${costEvents.costMicroCents}), 0)`;

export function agentSpendMicro(db: Queryable, agentId: string, w: MonthWindow): number {
  const row = db
    .select({ micro: total })
    .from(costEvents)
    .where(and(eq(costEvents.agentId, agentId), gte(costEvents.occurredAt, w.start), lt(costEvents.occurredAt, w.end)))
    .get();
  return Number(row?.micro ?? 0);
}

export function companySpendMicro(db: Queryable, companyId: string, w: MonthWindow): number {
  const row = db
    .select({ micro: total })
    .from(costEvents)
    .where(and(eq(costEvents.companyId, companyId), gte(costEvents.occurredAt, w.start), lt(costEvents.occurredAt, w.end)))
    .get();
  return Number(row?.micro ?? 0);
}

/** Spend per agent of a company in the current UTC month, in cents. */
export function monthlySpendByAgent(db: Queryable, companyId: string, now: Date): Map<string, number> {
  const w = monthWindow(now);
  const rows = db
    .select({ agentId: costEvents.agentId, micro: total })
    .from(costEvents)
    .where(and(eq(costEvents.companyId, companyId), gte(costEvents.occurredAt, w.start), lt(costEvents.occurredAt, w.end)))
    .groupBy(costEvents.agentId)
    .all();
  return new Map(rows.map((r) => [r.agentId, microToCents(Number(r.micro))]));
}

/** One agent's spend in the current UTC month, in cents (the agent's `spentMonthlyCents`). */
export const monthlySpendOfAgent = (db: Queryable, agentId: string, now: Date): number =>
  microToCents(agentSpendMicro(db, agentId, monthWindow(now)));
