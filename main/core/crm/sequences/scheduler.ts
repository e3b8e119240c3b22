import { and, asc, eq, inArray, isNull, lte } from 'drizzle-orm';
import { inTransaction, isoNow, type CoreContext } from '../../context.js';
import { ServiceError } from '../../kernel/errors.js';
import { recordActivity } from '../../activity/service.js';
import type { Dispatcher } from '../dispatcher.js';
import { crmActivities, crmOutboxes, type CrmActivityRow } from '../schema.js';
import { crmSequenceEnrollments, crmSequences, type CrmSequenceEnrollmentRow, type CrmSequenceRow } from './schema.js';
import { nextSendTime } from './window.js';
import { livePiece, stepDedupKey, stepPayload } from './steps.js';

/** How often the core looks for due steps. Steps are minutes apart; half a minute late is on time. */
export const SEQUENCE_TICK_MS = 30_000;
/** Enrollments handled per tick; the rest wait for the next one. */
export const TICK_BATCH = 200;
/** Failed attempts of one step before the enrollment is `failed`. */
export const MAX_STEP_FAILURES = 5;

/** Exponential backoff after a failed send: 1, 2, 4, 8 … minutes, at most 6 hours. */
export const backoffMs = (failures: number): number => Math.min(60_000 * 2 ** Math.max(0, failures - 1), 6 * 3600_000);

/** The next UTC midnight: quota buckets are UTC days (crm/quota.ts). */
export const nextUtcDay = (at: Date): Date => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));

export interface TickResult {
  /** Enrollments looked at. */
  examined: number;
  /** Steps handed to the dispatcher. */
  dispatched: number;
  /** Outcomes by status / stop reason, for logs and tests. */
  outcomes: Record<string, number>;
}

type Change = Partial<Pick<CrmSequenceEnrollmentRow, 'status' | 'stepIndex' | 'nextAt' | 'failures' | 'lastActivityId' | 'lastOutcome' | 'stopReason'>>;

/**
 * The sequence scheduler: on each tick, sends every due step through the shared dispatcher. Each
 * step carries its own dedup key (enrollment, step index), so a step sent just before a crash is
 * found as a replay on the next tick and only advances the enrollment. Ticks never overlap.
 */
export function createSequenceScheduler(ctx: CoreContext, deps: { dispatcher: () => Dispatcher }) {
  let current: Promise<TickResult> | null = null;
  let timer: NodeJS.Timeout | null = null;

  /** Writes a change only if the enrollment is still where this tick found it (a stop meanwhile wins). */
  function update(e: CrmSequenceEnrollmentRow, change: Change): void {
    inTransaction(ctx, (tx) => {
      const at = isoNow(ctx);
      const res = tx
        .update(crmSequenceEnrollments)
        .set({ ...change, updatedAt: at })
        .where(and(eq(crmSequenceEnrollments.id, e.id), eq(crmSequenceEnrollments.status, e.status), eq(crmSequenceEnrollments.stepIndex, e.stepIndex)))
        .run();
      const final = change.status && change.status !== e.status && !['active', 'waiting_approval'].includes(change.status);
      if (res.changes > 0 && final) {
        recordActivity(tx, at, 'system', {
          companyId: e.companyId,
          action: `crm.enrollment.${change.status}`,
          entityType: 'crm_sequence_enrollment',
          entityId: e.id,
          summary: `Enrollment of ${e.contact} ${change.status}${change.stopReason ? `: ${change.stopReason}` : ''}`,
          details: { sequenceId: e.sequenceId, stepIndex: change.stepIndex ?? e.stepIndex, reason: change.stopReason ?? null },
        });
      }
    });
  }

  /** The enrollment after its current step reached `activity`: advance, wait, back off or stop. */
  function apply(e: CrmSequenceEnrollmentRow, seq: CrmSequenceRow, activity: CrmActivityRow, now: Date): string {
    const base = { lastActivityId: activity.id, lastOutcome: activity.status };
    switch (activity.status) {
      case 'sent':
      case 'sent_dryrun': {
        const next = e.stepIndex + 1;
        if (next >= seq.steps.length) {
          update(e, { ...base, status: 'completed', stepIndex: next, nextAt: null, failures: 0 });
          return activity.status;
        }
        // The next delay counts from when this step actually left.
        const from = activity.sentAt ? new Date(activity.sentAt) : now;
        update(e, { ...base, status: 'active', stepIndex: next, nextAt: new Date(from.getTime() + seq.steps[next]!.delayMinutes * 60_000).toISOString(), failures: 0 });
        return activity.status;
      }
      case 'draft_pending_approval':
        update(e, { ...base, status: 'waiting_approval' });
        return activity.status;
      case 'blocked_by_quota':
        // Same step, same key, tomorrow (UTC): the dispatcher retries a blocked activity on its row.
        update(e, { ...base, status: 'active', nextAt: nextUtcDay(now).toISOString() });
        return activity.status;
      case 'blocked_by_allowlist':
        update(e, { ...base, status: 'stopped', nextAt: null, stopReason: 'blocked_by_allowlist' });
        return activity.status;
      case 'rejected':
        update(e, { ...base, status: 'stopped', nextAt: null, stopReason: 'rejected_by_board' });
        return activity.status;
      case 'failed': {
        if (activity.possiblySent) {
          // The message may have left; sending the step again could reach the contact twice.
          update(e, { ...base, status: 'stopped', nextAt: null, stopReason: 'possibly_sent' });
          return 'possibly_sent';
        }
        const failures = e.failures + 1;
        if (failures >= MAX_STEP_FAILURES) {
          update(e, { ...base, status: 'failed', nextAt: null, failures, stopReason: `step ${e.stepIndex} failed ${failures} times (${activity.errorCode ?? 'error'})` });
          return 'failed_final';
        }
        update(e, { ...base, status: 'active', failures, nextAt: new Date(now.getTime() + backoffMs(failures)).toISOString() });
        return 'failed';
      }
      case 'sending':
        // Only seen while another caller's channel call is in flight: look again next tick.
        return 'sending';
    }
  }

  async function sendStep(e: CrmSequenceEnrollmentRow, seq: CrmSequenceRow, now: Date): Promise<string> {
    const step = seq.steps[e.stepIndex];
    if (!step) {
      update(e, { status: 'completed', nextAt: null });
      return 'completed';
    }
    const outbox = ctx.db.select().from(crmOutboxes).where(eq(crmOutboxes.id, seq.outboxId)).get();
    const piece = step.contentPieceId ? (livePiece(ctx.db, e.companyId, step.contentPieceId) ?? null) : null;
    const payload = outbox ? stepPayload(step, piece, outbox.channel) : null;
    if (!outbox || outbox.deletedAt || !payload) {
      update(e, { status: 'stopped', nextAt: null, stopReason: !outbox || outbox.deletedAt ? 'outbox_deleted' : 'content_piece_deleted' });
      return 'invalid_step';
    }
    try {
      const { activity } = await deps.dispatcher().dispatch({
        companyId: e.companyId,
        actor: 'system',
        channel: outbox.channel,
        outboxId: outbox.id,
        to: e.contact,
        kind: step.kind,
        payload,
        contentPieceId: piece?.id ?? null,
        tags: step.tags,
        dedupKey: stepDedupKey(e.id, e.stepIndex),
        origin: 'sequence',
        originRef: e.id,
      });
      return apply(e, seq, activity, now);
    } catch (err) {
      // Refused before anything was written (the step no longer fits its outbox): stop, say why.
      if (err instanceof ServiceError && err.status < 500) {
        update(e, { status: 'stopped', nextAt: null, stopReason: `invalid_step: ${err.message}`.slice(0, 500) });
        return 'invalid_step';
      }
      throw err;
    }
  }

  /** A step waiting for the board: follow its activity once decided. */
  function followApproval(e: CrmSequenceEnrollmentRow, seq: CrmSequenceRow, now: Date): string | null {
    const activity = e.lastActivityId ? ctx.db.select().from(crmActivities).where(eq(crmActivities.id, e.lastActivityId)).get() : undefined;
    if (!activity) {
      update(e, { status: 'active', nextAt: now.toISOString() });
      return 'resumed';
    }
    if (activity.status === 'draft_pending_approval' || activity.status === 'sending') return null;
    return apply(e, seq, activity, now);
  }

  async function runTick(): Promise<TickResult> {
    const now = ctx.clock.now();
    const result: TickResult = { examined: 0, dispatched: 0, outcomes: {} };
    const count = (k: string | null) => {
      if (k) result.outcomes[k] = (result.outcomes[k] ?? 0) + 1;
    };
    const rows = ctx.db
      .select({ e: crmSequenceEnrollments, s: crmSequences })
      .from(crmSequenceEnrollments)
      .innerJoin(crmSequences, eq(crmSequences.id, crmSequenceEnrollments.sequenceId))
      .where(
        and(
          eq(crmSequences.status, 'active'),
          isNull(crmSequences.deletedAt),
          inArray(crmSequenceEnrollments.status, ['active', 'waiting_approval']),
          lte(crmSequenceEnrollments.nextAt, now.toISOString()),
        ),
      )
      .orderBy(asc(crmSequenceEnrollments.nextAt), asc(crmSequenceEnrollments.id))
      .limit(TICK_BATCH)
      .all();
    for (const { e, s } of rows) {
      result.examined++;
      try {
        if (e.status === 'waiting_approval') {
          count(followApproval(e, s, now));
          continue;
        }
        const sendAt = nextSendTime(now, s.sendWindow);
        if (sendAt.getTime() > now.getTime()) {
          update(e, { nextAt: sendAt.toISOString() });
          count('outside_window');
          continue;
        }
        result.dispatched++;
        count(await sendStep(e, s, now));
      } catch (err) {
        ctx.logger.error('sequence step failed unexpectedly; retried next tick', { enrollmentId: e.id, message: err instanceof Error ? err.message : String(err) });
        count('error');
      }
    }
    return result;
  }

  /** One pass over due enrollments. A tick asked for while one runs joins it (never two at once). */
  function tick(): Promise<TickResult> {
    current ??= runTick().finally(() => {
      current = null;
    });
    return current;
  }

  return {
    tick,
    /** Starts the interval (core start); `intervalMs` for embedders and tests. */
    start(intervalMs = SEQUENCE_TICK_MS): void {
      if (timer) return;
      timer = setInterval(() => {
        tick().catch((err: unknown) => ctx.logger.error('sequence tick failed', { message: err instanceof Error ? err.message : String(err) }));
      }, intervalMs);
      timer.unref();
    },
    /** Stops the interval and waits for a tick in flight (core close). */
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = null;
      await current?.catch(() => undefined);
    },
  };
}

export type SequenceScheduler = ReturnType<typeof createSequenceScheduler>;
