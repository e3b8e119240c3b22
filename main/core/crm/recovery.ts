import { and, eq, isNotNull } from 'drizzle-orm';
import { inTransaction, isoNow, type CoreContext } from '../context.js';
import { updateActivity } from './activity-records.js';
import { refundQuota } from './quota.js';
import { crmActivities } from './schema.js';
import type { Dispatcher } from './dispatcher.js';

/**
 * Start-up recovery. An attempt still `sending` was cut short by a crash between its quota
 * reservation and its outcome: it becomes `failed` with its unit refunded and `possiblySent` set
 * (the channel may have delivered it, so a replay will not send it again). Drafts the board had
 * approved but whose dispatch never ran are dispatched now, in the background.
 */
export function recoverCrm(ctx: CoreContext, dispatcher: Dispatcher): { interrupted: number; resumed: number } {
  const interrupted = inTransaction(ctx, (tx) => {
    const rows = tx.select().from(crmActivities).where(eq(crmActivities.status, 'sending')).all();
    const at = isoNow(ctx);
    for (const row of rows) {
      if (row.quotaDay) refundQuota(tx, row.outboxId, row.quotaDay, at);
      updateActivity(tx, at, 'system', row.id, {
        status: 'failed',
        quotaDay: null,
        possiblySent: true,
        errorCode: 'interrupted',
        errorMessage: 'Headcount stopped while this message was being sent; it may have been delivered',
      });
    }
    return rows.length;
  });
  const approved = ctx.db
    .select({ id: crmActivities.id })
    .from(crmActivities)
    .where(and(eq(crmActivities.status, 'draft_pending_approval'), isNotNull(crmActivities.approvedAt)))
    .all();
  for (const { id } of approved) {
    dispatcher.resumeApproved(id).catch((err: unknown) => ctx.logger.warn('could not dispatch an approved CRM draft after restart', { activityId: id, error: String(err) }));
  }
  if (interrupted > 0) ctx.logger.warn('CRM sends interrupted by a crash were marked failed (possibly sent) and their quota refunded', { count: interrupted });
  return { interrupted, resumed: approved.length };
}
