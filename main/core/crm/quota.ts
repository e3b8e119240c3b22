import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../context.js';
import { crmQuotaBuckets, type CrmOutboxRow } from './schema.js';

/** Sends a day per outbox when the outbox sets no `dailyCap` (the spec leaves the value open). */
export const DEFAULT_DAILY_CAP = 50;

export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The instant the bucket of `day` stops counting: the next UTC midnight. */
export const quotaResetAt = (day: string): string => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

export const capOf = (outbox: Pick<CrmOutboxRow, 'dailyCap'>): number => outbox.dailyCap ?? DEFAULT_DAILY_CAP;

/**
 * Takes one unit of the outbox's bucket for `day` inside the caller's transaction. The caller holds
 * SQLite's write lock (IMMEDIATE transaction), so read-then-write cannot interleave with another
 * reservation, in this process or another.
 */
export function reserveQuota(tx: Queryable, outbox: CrmOutboxRow, day: string, at: string): { reserved: boolean; used: number; cap: number } {
  const cap = capOf(outbox);
  const row = tx
    .select({ used: crmQuotaBuckets.used })
    .from(crmQuotaBuckets)
    .where(and(eq(crmQuotaBuckets.outboxId, outbox.id), eq(crmQuotaBuckets.day, day)))
    .get();
  const used = row?.used ?? 0;
  if (used >= cap) {
    if (row) tx.update(crmQuotaBuckets).set({ cap }).where(and(eq(crmQuotaBuckets.outboxId, outbox.id), eq(crmQuotaBuckets.day, day))).run();
    return { reserved: false, used, cap };
  }
  if (row) {
    tx.update(crmQuotaBuckets)
      .set({ used: used + 1, cap, updatedAt: at })
      .where(and(eq(crmQuotaBuckets.outboxId, outbox.id), eq(crmQuotaBuckets.day, day)))
      .run();
  } else {
    tx.insert(crmQuotaBuckets).values({ outboxId: outbox.id, day, companyId: outbox.companyId, used: 1, cap, updatedAt: at }).run();
  }
  return { reserved: true, used: used + 1, cap };
}

/** Gives back the unit of a failed or interrupted attempt. */
export function refundQuota(tx: Queryable, outboxId: string, day: string, at: string): void {
  tx.update(crmQuotaBuckets)
    .set({ used: sql`max(${crmQuotaBuckets.used} - 1, 0)`, updatedAt: at })
    .where(and(eq(crmQuotaBuckets.outboxId, outboxId), eq(crmQuotaBuckets.day, day)))
    .run();
}
