import { randomBytes } from 'node:crypto';
import { and, eq, isNull, max } from 'drizzle-orm';
import { routineFirings, routines, type RoutineFiringRow, type RoutineRow } from './schema.js';
import type { CreateRoutineInput, PatchRoutineInput, Routine, RoutineFiring, RoutineTrigger, RoutineWithToken } from './contract.js';
import { issues } from '../issues/schema.js';
import { assertProject, resolveAssignee } from '../issues/references.js';
import { hashKey } from '../auth/tokens.js';
import type { Actor } from '../kernel/actor.js';
import { assertRecordAccess } from '../kernel/access.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';
import { newId } from '../kernel/ids.js';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { cronProblem, nextSlots } from './slots.js';
import { materializeFiring, type FiringHooks } from './firing.js';

export const WEBHOOK_TOKEN_PREFIX = 'hcr_';
/** Stored webhook bodies are capped; a larger body is refused with 413 rather than cut. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

const newWebhookToken = () => WEBHOOK_TOKEN_PREFIX + randomBytes(32).toString('base64url');

function triggerOf(r: RoutineRow): RoutineTrigger {
  if (r.triggerKind === 'schedule') return { kind: 'schedule', cron: r.cron ?? '', timezone: r.timezone ?? 'UTC' };
  return { kind: r.triggerKind };
}

function toRoutine(db: Queryable, r: RoutineRow, now: Date): Routine {
  const last = db.select({ at: max(routineFirings.firedAt) }).from(routineFirings).where(eq(routineFirings.routineId, r.id)).get();
  return {
    id: r.id,
    companyId: r.companyId,
    title: r.title,
    description: r.description,
    assigneeAgentId: r.assigneeAgentId,
    projectId: r.projectId,
    priority: r.priority,
    trigger: triggerOf(r),
    catchUp: r.catchUp,
    concurrency: r.concurrency,
    enabled: r.enabled,
    nextFireTimes: r.enabled && r.triggerKind === 'schedule' && r.cron && r.timezone ? nextSlots(r.cron, r.timezone, now, 5).map((s) => s.at.toISOString()) : [],
    hasWebhookToken: r.webhookTokenHash !== null,
    lastFiredAt: last?.at ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function checkTrigger(t: RoutineTrigger): void {
  if (t.kind !== 'schedule') return;
  const problem = cronProblem(t.cron, t.timezone);
  if (problem) throw badRequest('invalid_trigger', `body.${problem.path}: ${problem.message}`, { problems: [{ location: 'body', path: `body.${problem.path}`, message: problem.message }] });
}

function requireRoutine(db: Queryable, actor: Actor, routineId: string): RoutineRow {
  const row = db.select().from(routines).where(and(eq(routines.id, routineId), isNull(routines.deletedAt))).get();
  if (!row) throw notFound('Routine');
  assertRecordAccess(actor, row.companyId, 'Routine');
  return row;
}

/** Records a firing without a slot (webhook, api) in its own transaction, then creates its issue. */
function fire(ctx: CoreContext, hooks: FiringHooks, routine: RoutineRow, trigger: 'webhook' | 'api', payload: unknown): RoutineFiringRow {
  if (!routine.enabled) throw conflict('routine_paused', `Routine "${routine.title}" is paused; resume it to fire`);
  const id = newId();
  inTransaction(ctx, (tx) => {
    tx.insert(routineFirings).values({ id, companyId: routine.companyId, routineId: routine.id, slotKey: null, slotAt: null, trigger, outcome: 'pending', payload: payload ?? null, firedAt: isoNow(ctx) }).run();
  });
  materializeFiring(ctx, id, hooks);
  return ctx.db.select().from(routineFirings).where(eq(routineFirings.id, id)).get()!;
}

function toFiring(db: Queryable, f: RoutineFiringRow): RoutineFiring {
  const issue = f.issueId ? db.select({ identifier: issues.identifier, status: issues.status }).from(issues).where(eq(issues.id, f.issueId)).get() : undefined;
  return {
    id: f.id,
    routineId: f.routineId,
    slotAt: f.slotAt,
    slotKey: f.slotKey,
    trigger: f.trigger,
    outcome: f.outcome,
    reason: f.reason,
    issueId: f.issueId,
    issueIdentifier: issue?.identifier ?? null,
    issueStatus: issue?.status ?? null,
    payload: f.payload ?? null,
    firedAt: f.firedAt,
  };
}

export function createRoutinesService(ctx: CoreContext, deps: { apiUrl: () => string; hooks?: FiringHooks }) {
  const hooks = deps.hooks ?? {};
  const withToken = (tx: Tx, row: RoutineRow, token: string | null): RoutineWithToken => ({
    ...toRoutine(tx, row, ctx.clock.now()),
    webhookToken: token,
    webhookUrl: token ? `${deps.apiUrl()}/api/routine-hooks/${token}` : null,
  });

  return {
    /** Live routines by title; titles repeat, so the rowid breaks ties. */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Routine> {
      assertCompany(ctx.db, actor, companyId);
      const now = ctx.clock.now();
      return keyset(routines, routines.title, 'asc').pageOf(ctx.db, and(eq(routines.companyId, companyId), isNull(routines.deletedAt)), page, (r) => toRoutine(ctx.db, r, now));
    },

    get(actor: Actor, routineId: string): Routine {
      return toRoutine(ctx.db, requireRoutine(ctx.db, actor, routineId), ctx.clock.now());
    },

    create(actor: Actor, companyId: string, input: CreateRoutineInput): RoutineWithToken {
      checkTrigger(input.trigger);
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const agent = resolveAssignee(tx, companyId, input.assigneeAgentId);
        if (input.projectId) assertProject(tx, companyId, input.projectId);
        const at = isoNow(ctx);
        const token = input.trigger.kind === 'webhook' ? newWebhookToken() : null;
        const row = tx
          .insert(routines)
          .values({
            id: newId(),
            companyId,
            title: input.title,
            description: input.description ?? '',
            assigneeAgentId: agent.id,
            projectId: input.projectId ?? null,
            priority: input.priority ?? 'medium',
            triggerKind: input.trigger.kind,
            cron: input.trigger.kind === 'schedule' ? input.trigger.cron.trim().split(/\s+/).join(' ') : null,
            timezone: input.trigger.kind === 'schedule' ? input.trigger.timezone : null,
            webhookTokenHash: token ? hashKey(token) : null,
            catchUp: input.catchUp,
            concurrency: input.concurrency,
            enabled: input.enabled,
            // Slots before the routine existed are not missed: scheduling starts now.
            scheduledThrough: at,
            createdAt: at,
            updatedAt: at,
          })
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'routine.created', entityType: 'routine', entityId: row.id, summary: `Routine "${row.title}" created (${row.triggerKind})`, details: { trigger: triggerOf(row) } });
        return withToken(tx, row, token);
      });
    },

    patch(actor: Actor, routineId: string, input: PatchRoutineInput): Routine {
      if (input.trigger) checkTrigger(input.trigger);
      return inTransaction(ctx, (tx) => {
        const row = requireRoutine(tx, actor, routineId);
        const at = isoNow(ctx);
        const changes: Partial<RoutineRow> = {};
        for (const k of ['title', 'description', 'priority', 'catchUp', 'concurrency'] as const) {
          if (input[k] !== undefined && input[k] !== row[k]) (changes as Record<string, unknown>)[k] = input[k];
        }
        if (input.assigneeAgentId !== undefined) changes.assigneeAgentId = resolveAssignee(tx, row.companyId, input.assigneeAgentId).id;
        if (input.projectId !== undefined) {
          if (input.projectId) assertProject(tx, row.companyId, input.projectId);
          changes.projectId = input.projectId;
        }
        if (input.trigger) {
          const t = input.trigger;
          Object.assign(changes, { triggerKind: t.kind, cron: t.kind === 'schedule' ? t.cron.trim().split(/\s+/).join(' ') : null, timezone: t.kind === 'schedule' ? t.timezone : null });
          // A new schedule starts now; a webhook keeps its token, other kinds drop it.
          if (t.kind === 'schedule') changes.scheduledThrough = at;
          if (t.kind !== 'webhook') changes.webhookTokenHash = null;
        }
        if (input.enabled !== undefined && input.enabled !== row.enabled) {
          changes.enabled = input.enabled;
          // Slots while paused are not fired on resume: the schedule picks up from now.
          if (input.enabled) changes.scheduledThrough = at;
        }
        const updated = tx.update(routines).set({ ...changes, updatedAt: at }).where(eq(routines.id, row.id)).returning().get();
        const action = changes.enabled === false ? 'routine.paused' : changes.enabled === true ? 'routine.resumed' : 'routine.updated';
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action,
          entityType: 'routine',
          entityId: row.id,
          summary: `Routine "${updated.title}" ${action.slice('routine.'.length)}`,
          details: { fields: Object.keys(changes).filter((k) => k !== 'scheduledThrough' && k !== 'webhookTokenHash') },
        });
        return toRoutine(tx, updated, ctx.clock.now());
      });
    },

    /** Soft delete: firings and issues stay; pending firings are cancelled. */
    remove(actor: Actor, routineId: string): void {
      inTransaction(ctx, (tx) => {
        const row = requireRoutine(tx, actor, routineId);
        const at = isoNow(ctx);
        tx.update(routines).set({ deletedAt: at, enabled: false, webhookTokenHash: null, updatedAt: at }).where(eq(routines.id, row.id)).run();
        tx.update(routineFirings).set({ outcome: 'cancelled', reason: 'the routine was deleted' }).where(and(eq(routineFirings.routineId, row.id), eq(routineFirings.outcome, 'pending'))).run();
        recordActivity(tx, at, actor, { companyId: row.companyId, action: 'routine.deleted', entityType: 'routine', entityId: row.id, summary: `Routine "${row.title}" deleted` });
      });
    },

    /** A new webhook token; the old one stops working at once. Shown only in this answer. */
    rotateToken(actor: Actor, routineId: string): RoutineWithToken {
      return inTransaction(ctx, (tx) => {
        const row = requireRoutine(tx, actor, routineId);
        if (row.triggerKind !== 'webhook') throw conflict('not_a_webhook', 'Only a routine with a webhook trigger has a token');
        const token = newWebhookToken();
        const at = isoNow(ctx);
        const updated = tx.update(routines).set({ webhookTokenHash: hashKey(token), updatedAt: at }).where(eq(routines.id, row.id)).returning().get();
        recordActivity(tx, at, actor, { companyId: row.companyId, action: 'routine.webhook_rotated', entityType: 'routine', entityId: row.id, summary: `Routine "${row.title}": webhook token rotated` });
        return withToken(tx, updated, token);
      });
    },

    /**
     * `POST /api/routines/{id}/fire`: an agent of the routine's company fires `api` routines; the
     * board fires any routine by hand ("fire now"), recorded as an api firing.
     */
    fireByApi(actor: Actor, routineId: string, payload: unknown): RoutineFiring {
      const row = requireRoutine(ctx.db, actor, routineId);
      if (actor.kind === 'agent' && row.triggerKind !== 'api') throw conflict('wrong_trigger', `This routine is triggered by ${row.triggerKind}; agents may fire api routines only`);
      return toFiring(ctx.db, fire(ctx, hooks, row, 'api', payload));
    },

    /** `POST /api/routine-hooks/{token}`: the token is the only credential; any miss is 404. */
    fireByHook(token: string, body: unknown): RoutineFiring {
      const row = token.startsWith(WEBHOOK_TOKEN_PREFIX)
        ? ctx.db.select().from(routines).where(and(eq(routines.webhookTokenHash, hashKey(token)), eq(routines.triggerKind, 'webhook'), isNull(routines.deletedAt))).get()
        : undefined;
      if (!row) throw notFound('Routine hook');
      return toFiring(ctx.db, fire(ctx, hooks, row, 'webhook', body));
    },

    /** Newest first (fired at, then the order they were written), one keyset page at a time. */
    firings(actor: Actor, routineId: string, page: KeysetQuery): KeysetPage<RoutineFiring> {
      const row = requireRoutine(ctx.db, actor, routineId);
      return keyset(routineFirings, routineFirings.firedAt, 'desc').pageOf(ctx.db, eq(routineFirings.routineId, row.id), page, (r) => toFiring(ctx.db, r));
    },
  };
}
