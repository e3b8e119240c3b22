import { and, eq, isNull } from 'drizzle-orm';
import { routineFirings, routines, type RoutineRow } from './schema.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, type CoreContext } from '../context.js';
import { newId } from '../kernel/ids.js';
import { MAX_SLOTS_PER_PASS, slotsBetween, type Slot } from './slots.js';
import { materializePending, type FiringHooks } from './firing.js';

/** How often the core looks for due slots. Cron has minute resolution. */
export const ROUTINE_TICK_MS = 15_000;
/** A slot found later than this after its time was missed (the core was not running, the laptop slept). */
export const MISSED_AFTER_MS = 5 * 60_000;
/** `catchUp: all` fires at most this many missed slots, the latest ones. */
export const CATCH_UP_CAP = 10;
/** Skipped slots recorded one by one at most (the latest); the activity record has the full count. */
const MAX_RECORDED_SKIPS = 100;

interface Decision {
  slot: Slot;
  trigger: 'schedule' | 'catch_up';
  outcome: 'pending' | 'skipped_missed';
  reason: string | null;
}

/** What to do with the slots found in one pass, by the routine's catch-up policy. */
export function decide(routine: Pick<RoutineRow, 'catchUp'>, slots: Slot[], now: Date): Decision[] {
  const onTime = slots.filter((s) => now.getTime() - s.at.getTime() <= MISSED_AFTER_MS);
  const missed = slots.filter((s) => now.getTime() - s.at.getTime() > MISSED_AFTER_MS);
  const out: Decision[] = [];
  const skip = (list: Slot[], reason: string) => {
    for (const slot of list.slice(-MAX_RECORDED_SKIPS)) out.push({ slot, trigger: 'schedule', outcome: 'skipped_missed', reason });
  };
  if (missed.length > 0) {
    if (routine.catchUp === 'skip') skip(missed, 'missed while the core was not running (catchUp: skip)');
    else if (routine.catchUp === 'once') {
      const last = missed[missed.length - 1]!;
      skip(missed.slice(0, -1), 'covered by one catch-up firing (catchUp: once)');
      out.push({ slot: last, trigger: 'catch_up', outcome: 'pending', reason: missed.length > 1 ? `catches up ${missed.length} missed slots` : null });
    } else {
      skip(missed.slice(0, -CATCH_UP_CAP), `beyond the catch-up cap of ${CATCH_UP_CAP} (catchUp: all)`);
      for (const slot of missed.slice(-CATCH_UP_CAP)) out.push({ slot, trigger: 'catch_up', outcome: 'pending', reason: null });
    }
  }
  for (const slot of onTime) out.push({ slot, trigger: 'schedule', outcome: 'pending', reason: null });
  return out;
}

/**
 * The routine scheduler. Each tick, per scheduled routine, looks at the slots since its
 * `scheduledThrough` mark and, in one transaction, records a firing row per slot (the UNIQUE
 * (routine, slot) key makes a second process or a repeated pass insert nothing) and moves the mark
 * to now. Then every `pending` firing becomes its issue (firing.ts). Ticks never overlap.
 */
export function createRoutineScheduler(ctx: CoreContext) {
  let timer: NodeJS.Timeout | null = null;
  let first: NodeJS.Immediate | null = null;
  let running = false;
  const hooks: FiringHooks = {};

  function claimSlots(routine: RoutineRow, now: Date): number {
    if (!routine.cron || !routine.timezone) return 0;
    const through = new Date(routine.scheduledThrough ?? routine.createdAt);
    // A clock set back leaves the mark ahead: nothing is due until time passes it again.
    if (now.getTime() <= through.getTime()) return 0;
    const slots = slotsBetween(routine.cron, routine.timezone, through, now);
    return inTransaction(ctx, (tx) => {
      // Another process moved the mark meanwhile: its pass covers these slots.
      const fresh = tx.select({ scheduledThrough: routines.scheduledThrough, enabled: routines.enabled, deletedAt: routines.deletedAt }).from(routines).where(eq(routines.id, routine.id)).get();
      if (!fresh || fresh.scheduledThrough !== routine.scheduledThrough || !fresh.enabled || fresh.deletedAt) return 0;
      const at = now.toISOString();
      const mark = slots.length >= MAX_SLOTS_PER_PASS ? slots[slots.length - 1]!.at.toISOString() : at;
      tx.update(routines).set({ scheduledThrough: mark }).where(eq(routines.id, routine.id)).run();
      const decisions = decide(routine, slots, now);
      let claimed = 0;
      for (const d of decisions) {
        const res = tx
          .insert(routineFirings)
          .values({ id: newId(), companyId: routine.companyId, routineId: routine.id, slotKey: d.slot.key, slotAt: d.slot.at.toISOString(), trigger: d.trigger, outcome: d.outcome, reason: d.reason, firedAt: at })
          .onConflictDoNothing()
          .run();
        if (res.changes > 0 && d.outcome === 'pending') claimed++;
      }
      const missed = slots.filter((s) => now.getTime() - s.at.getTime() > MISSED_AFTER_MS).length;
      if (missed > 0) {
        recordActivity(tx, at, 'system', {
          companyId: routine.companyId,
          action: 'routine.slots_missed',
          entityType: 'routine',
          entityId: routine.id,
          summary: `Routine "${routine.title}" missed ${missed} slot${missed === 1 ? '' : 's'} while the core was not running (catchUp: ${routine.catchUp})`,
          details: { missed, catchUp: routine.catchUp, first: slots[0]!.at.toISOString() },
        });
      }
      return claimed;
    });
  }

  /** One pass: claim due slots of every enabled schedule, then create the issues of pending firings. */
  function tick(): { claimed: number; created: number } {
    if (running) return { claimed: 0, created: 0 };
    running = true;
    try {
      const now = ctx.clock.now();
      let claimed = 0;
      const due = ctx.db.select().from(routines).where(and(eq(routines.triggerKind, 'schedule'), eq(routines.enabled, true), isNull(routines.deletedAt))).all();
      for (const r of due) {
        try {
          claimed += claimSlots(r, now);
        } catch (err) {
          ctx.logger.error('routine schedule pass failed', { routineId: r.id, message: err instanceof Error ? err.message : String(err) });
        }
      }
      return { claimed, created: materializePending(ctx, hooks) };
    } finally {
      running = false;
    }
  }

  return {
    tick,
    /** Test seam (firing.ts): e.g. throw after a firing is recorded, to simulate a crash there. */
    hooks,
    /** First pass at once (finishes firings a crash left pending, fires what is due), then every interval. */
    start(intervalMs = ROUTINE_TICK_MS): void {
      if (timer) return;
      const safeTick = () => {
        try {
          tick();
        } catch (err) {
          ctx.logger.error('routine tick failed', { message: err instanceof Error ? err.message : String(err) });
        }
      };
      first = setImmediate(safeTick);
      timer = setInterval(safeTick, intervalMs);
      timer.unref();
    },
    stop(): void {
      if (first) clearImmediate(first);
      if (timer) clearInterval(timer);
      timer = first = null;
    },
  };
}

export type RoutineScheduler = ReturnType<typeof createRoutineScheduler>;
