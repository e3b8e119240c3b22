import { and, eq, gte, lt, sql } from 'drizzle-orm';
import { costEvents, MICRO_CENTS_PER_CENT } from './schema.js';
import { monthWindow } from './window.js';
import type { Queryable } from '../context.js';

/** Spend per agent of a company in the current UTC month, in cents. */
export function monthlySpendByAgent(db: Queryable, companyId: string, now: Date): Map<string, number> {
  const { start, end } = monthWindow(now);
  const rows = db
    .select({ agentId: costEvents.agentId, micro: sql<number>`sum(${costEvents.costMicroCents})` })
    .from(costEvents)
    .where(and(eq(costEvents.companyId, companyId), gte(costEvents.occurredAt, start), lt(costEvents.occurredAt, end)))
    .groupBy(costEvents.agentId)
    .all();
  return new Map(rows.map((r) => [r.agentId, Number(r.micro) / MICRO_CENTS_PER_CENT]));
}

export function monthlySpendOfAgent(db: Queryable, agentId: string, now: Date): number {
  const { start, end } = monthWindow(now);
  const row = db
    .select({ micro: sql<number>`coalesce(sum(${costEvents.costMicroCents}), 0)` })
    .from(costEvents)
    .where(and(eq(costEvents.agentId, agentId), gte(costEvents.occurredAt, start), lt(costEvents.occurredAt, end)))
    .get();
  return Number(row?.micro ?? 0) / MICRO_CENTS_PER_CENT;
}
