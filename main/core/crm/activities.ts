import { and, desc, eq, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Actor } from '../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext } from '../context.js';
import type { KeysetPage, KeysetQuery } from '../db/keyset.js';
import { assertBoard } from '../kernel/access.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { updateActivity } from './activity-records.js';
import { capOf, quotaResetAt, utcDay } from './quota.js';
import { readForceDryRun, writeForceDryRun } from './settings.js';
import { crmActivities, crmOutboxes, crmQuotaBuckets } from './schema.js';
import { outboxOrder } from './outboxes.js';
import type { CrmActivity, ListActivitiesQuery, QuotaRow } from './contract.js';
import { toActivity } from './present.js';

// Pages follow insertion order (SQLite's rowid): timestamps of two sends can share a millisecond.
const encodeCursor = (rowid: number) => Buffer.from(`c:${rowid}`).toString('base64url');
function decodeCursor(cursor: string): number | null {
  const m = /^c:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}

/** Reading activities, rejecting drafts, the quota view and the global dry-run switch. */
export function createActivitiesService(ctx: CoreContext) {
  return {
    /** Newest first, paged by an opaque cursor. */
    list(actor: Actor, companyId: string, query: ListActivitiesQuery): { items: CrmActivity[]; nextCursor: string | null } {
      assertCompany(ctx.db, actor, companyId);
      const filters: SQL[] = [eq(crmActivities.companyId, companyId)];
      if (query.status) filters.push(eq(crmActivities.status, query.status));
      if (query.outboxId) filters.push(eq(crmActivities.outboxId, query.outboxId));
      if (query.channel) filters.push(eq(crmActivities.channel, query.channel));
      if (query.cursor) {
        const before = decodeCursor(query.cursor);
        if (before === null) throw badRequest('invalid_cursor', 'query.cursor: not a cursor from this list');
        filters.push(lt(sql`${crmActivities}.rowid`, before));
      }
      const rows = ctx.db
        .select({ row: crmActivities, rowid: sql<number>`${crmActivities}.rowid` })
        .from(crmActivities)
        .where(and(...filters))
        .orderBy(desc(sql`${crmActivities}.rowid`))
        .limit(query.limit + 1)
        .all();
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items: items.map((r) => toActivity(r.row)), nextCursor: rows.length > query.limit && last ? encodeCursor(last.rowid) : null };
    },

    get(actor: Actor, companyId: string, activityId: string): CrmActivity {
      assertCompany(ctx.db, actor, companyId);
      const row = ctx.db.select().from(crmActivities).where(and(eq(crmActivities.id, activityId), eq(crmActivities.companyId, companyId))).get();
      if (!row) throw notFound('CRM activity');
      return toActivity(row);
    },

    /** The board turns a draft down: it is never sent, and a replay of it stays rejected. */
    reject(actor: Actor, companyId: string, activityId: string, note: string | undefined): CrmActivity {
      assertBoard(actor, 'reject CRM drafts');
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = tx.select().from(crmActivities).where(and(eq(crmActivities.id, activityId), eq(crmActivities.companyId, companyId))).get();
        if (!row) throw notFound('CRM activity');
        if (row.status !== 'draft_pending_approval' || row.approvedAt) {
          throw conflict('not_pending', `This activity is ${row.approvedAt ? 'already approved' : row.status}, not a draft pending approval`, { status: row.status });
        }
        const at = isoNow(ctx);
        const next = updateActivity(tx, at, actor, row.id, { status: 'rejected', decision: 'board_rejected', ruleId: null, decidedAt: at, errorMessage: note ?? null });
        return toActivity(next);
      });
    },

    /** Today's bucket (UTC) of each live outbox, paged in the outboxes' own order: used, cap, remaining and when it resets. */
    quota(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<QuotaRow> {
      assertCompany(ctx.db, actor, companyId);
      const day = utcDay(ctx.clock.now());
      const order = outboxOrder();
      const rows = ctx.db
        .select({ outbox: crmOutboxes, used: crmQuotaBuckets.used, rowid: order.rowid })
        .from(crmOutboxes)
        .leftJoin(crmQuotaBuckets, and(eq(crmQuotaBuckets.outboxId, crmOutboxes.id), eq(crmQuotaBuckets.day, day)))
        .where(and(eq(crmOutboxes.companyId, companyId), isNull(crmOutboxes.deletedAt), order.after(page.after)))
        .orderBy(...order.orderBy)
        .limit(page.limit + 1)
        .all();
      return order.page(rows, page.limit, (r) => r.outbox.createdAt, ({ outbox, used }) => {
        const cap = capOf(outbox);
        const u = used ?? 0;
        return { outboxId: outbox.id, outboxName: outbox.name, channel: outbox.channel, day, used: u, cap, remaining: Math.max(cap - u, 0), resetsAt: quotaResetAt(day) };
      });
    },

    settings(actor: Actor): { forceDryRun: boolean } {
      assertBoard(actor, 'read the CRM settings');
      return { forceDryRun: readForceDryRun(ctx.db) };
    },

    updateSettings(actor: Actor, input: { forceDryRun: boolean }): { forceDryRun: boolean } {
      assertBoard(actor, 'change the CRM settings');
      return inTransaction(ctx, (tx) => {
        const at = isoNow(ctx);
        writeForceDryRun(tx, input.forceDryRun, at);
        recordActivity(tx, at, actor, {
          companyId: null,
          action: 'crm.settings.updated',
          entityType: 'instance_setting',
          entityId: 'crm.forceDryRun',
          summary: `CRM global dry-run switch ${input.forceDryRun ? 'on' : 'off'}`,
          details: { forceDryRun: input.forceDryRun },
        });
        return { forceDryRun: input.forceDryRun };
      });
    },
  };
}
