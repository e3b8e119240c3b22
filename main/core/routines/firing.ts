import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { routineFirings, routines, type RoutineFiringRow, type RoutineRow } from './schema.js';
import { issues } from '../issues/schema.js';
import { insertIssue } from '../issues/insert.js';
import { agents } from '../agents/schema.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { localKey } from './slots.js';

/** Test seam: runs after a firing is recorded and before its issue is inserted (crash simulation). */
export interface FiringHooks {
  beforeIssueInsert?: ((firing: RoutineFiringRow) => void) | undefined;
}

const MAX_TITLE = 500;

/** `{{name}}` and `{{body.a.b}}` placeholders; unknown ones become empty. */
export function renderTemplate(template: string, vars: Record<string, unknown>): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_m, path: string) => {
    let v: unknown = vars;
    for (const part of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
    if (v === undefined || v === null) return '';
    return typeof v === 'object' ? JSON.stringify(v) : String(v);
  });
}

function templateVars(routine: RoutineRow, firing: RoutineFiringRow): Record<string, unknown> {
  const at = new Date(firing.slotAt ?? firing.firedAt);
  const tz = routine.timezone ?? 'UTC';
  const local = localKey(at, tz);
  return { firedAt: firing.firedAt, slot: local.replace('T', ' '), date: local.slice(0, 10), time: local.slice(11), timezone: tz, trigger: firing.trigger, body: firing.payload ?? {} };
}

/** Why a new issue must not be created under `skip_if_open`, or null. */
function openIssueOf(db: Queryable, routineId: string): string | null {
  const last = db
    .select({ identifier: issues.identifier, status: issues.status })
    .from(routineFirings)
    .innerJoin(issues, eq(issues.id, routineFirings.issueId))
    .where(and(eq(routineFirings.routineId, routineId), isNotNull(routineFirings.issueId)))
    .orderBy(desc(routineFirings.firedAt), desc(routineFirings.slotAt))
    .limit(1)
    .get();
  return last && last.status !== 'done' && last.status !== 'cancelled' ? `${last.identifier} is still ${last.status}` : null;
}

/**
 * Turns one recorded (`pending`) firing into its issue, exactly once: the firing's outcome moves
 * from `pending` in the same transaction that inserts the issue, so a crash before the commit
 * leaves the firing pending (done again at the next start) and after it leaves nothing to do.
 */
export function materializeFiring(ctx: CoreContext, firingId: string, hooks: FiringHooks = {}): RoutineFiringRow | null {
  return inTransaction(ctx, (tx) => {
    const firing = tx.select().from(routineFirings).where(and(eq(routineFirings.id, firingId), eq(routineFirings.outcome, 'pending'))).get();
    if (!firing) return null;
    const routine = tx.select().from(routines).where(eq(routines.id, firing.routineId)).get()!;
    const at = isoNow(ctx);
    const settle = (outcome: RoutineFiringRow['outcome'], reason: string | null, issueId: string | null = null) =>
      tx.update(routineFirings).set({ outcome, reason, issueId }).where(eq(routineFirings.id, firing.id)).returning().get();
    if (routine.deletedAt) return settle('cancelled', 'the routine was deleted');
    const agent = tx.select({ status: agents.status }).from(agents).where(eq(agents.id, routine.assigneeAgentId)).get();
    if (!agent || agent.status === 'terminated') {
      const done = settle('cancelled', 'the routine\'s agent was terminated');
      recordActivity(tx, at, 'system', { companyId: routine.companyId, action: 'routine.firing_cancelled', entityType: 'routine', entityId: routine.id, summary: `Routine "${routine.title}" did not fire: its agent was terminated`, details: { firingId: firing.id } });
      return done;
    }
    if (routine.concurrency === 'skip_if_open') {
      const open = openIssueOf(tx, routine.id);
      if (open) {
        recordActivity(tx, at, 'system', {
          companyId: routine.companyId,
          action: 'routine.firing_skipped',
          entityType: 'routine',
          entityId: routine.id,
          summary: `Routine "${routine.title}" skipped a firing: ${open}`,
          details: { firingId: firing.id, slotAt: firing.slotAt },
        });
        return settle('skipped_open_issue', open);
      }
    }
    hooks.beforeIssueInsert?.(firing);
    const vars = templateVars(routine, firing);
    const issue = insertIssue(
      tx,
      at,
      { kind: 'board' },
      {
        companyId: routine.companyId,
        title: renderTemplate(routine.title, vars).trim().slice(0, MAX_TITLE) || routine.title.slice(0, MAX_TITLE),
        description: renderTemplate(routine.description, vars),
        status: 'todo',
        priority: routine.priority,
        assigneeAgentId: routine.assigneeAgentId,
        projectId: routine.projectId,
      },
      { routineId: routine.id, firingId: firing.id },
    );
    recordActivity(tx, at, 'system', {
      companyId: routine.companyId,
      action: 'routine.fired',
      entityType: 'routine',
      entityId: routine.id,
      summary: `Routine "${routine.title}" fired (${firing.trigger}${firing.slotKey ? `, slot ${firing.slotKey.replace('T', ' ')} ${routine.timezone}` : ''}): ${issue.identifier}`,
      details: { firingId: firing.id, issueId: issue.id, trigger: firing.trigger, slotAt: firing.slotAt },
    });
    return settle('issue_created', firing.reason, issue.id);
  });
}

/** Firings recorded but not yet turned into issues (a crash in between): done now, oldest first. */
export function materializePending(ctx: CoreContext, hooks: FiringHooks = {}): number {
  const pending = ctx.db.select({ id: routineFirings.id }).from(routineFirings).where(eq(routineFirings.outcome, 'pending')).orderBy(routineFirings.firedAt, routineFirings.slotAt).all();
  let n = 0;
  for (const p of pending) {
    try {
      if (materializeFiring(ctx, p.id, hooks)) n++;
    } catch (err) {
      ctx.logger.error('routine firing failed; retried on the next tick', { firingId: p.id, message: err instanceof Error ? err.message : String(err) });
    }
  }
  return n;
}
