import { eq } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { goals, type GoalRow } from './schema.js';
import type { Goal } from './contract.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { assertRecordAccess } from '../kernel/access.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { projects } from '../projects/schema.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { changedFields } from '../kernel/patch.js';

const toGoal = (row: GoalRow): Goal => ({ ...row });

export function requireGoal(db: Queryable, actor: Actor, goalId: string): GoalRow {
  const row = db.select().from(goals).where(eq(goals.id, goalId)).get();
  if (!row) throw notFound('Goal');
  assertRecordAccess(actor, row.companyId, 'Goal');
  return row;
}

function assertProjectOfCompany(db: Queryable, companyId: string, projectId: string): void {
  const project = db.select({ companyId: projects.companyId }).from(projects).where(eq(projects.id, projectId)).get();
  if (!project || project.companyId !== companyId) {
    throw badRequest('invalid_project', 'body.projectId: must be a project of the same company', {
      problems: [{ location: 'body', path: 'body.projectId', message: 'not a project of this company' }],
    });
  }
}

type GoalInput = {
  title?: string | undefined;
  description?: string | undefined;
  status?: GoalRow['status'] | undefined;
  projectId?: string | null | undefined;
};

/** Goals say why work exists; issues and projects point at them. */
export function createGoalsService(ctx: CoreContext) {
  return {
    /** Oldest first. */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Goal> {
      assertCompany(ctx.db, actor, companyId);
      return keyset(goals, goals.createdAt, 'asc').pageOf(ctx.db, eq(goals.companyId, companyId), page, toGoal);
    },

    get: (actor: Actor, goalId: string): Goal => toGoal(requireGoal(ctx.db, actor, goalId)),

    create(actor: Actor, companyId: string, input: GoalInput & { title: string }): Goal {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        if (input.projectId) assertProjectOfCompany(tx, companyId, input.projectId);
        const at = isoNow(ctx);
        const row = tx
          .insert(goals)
          .values({
            id: newId(),
            companyId,
            projectId: input.projectId ?? null,
            title: input.title,
            description: input.description ?? '',
            status: input.status ?? 'active',
            createdAt: at,
            updatedAt: at,
          })
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'goal.created', entityType: 'goal', entityId: row.id, summary: `Goal "${row.title}" created` });
        return toGoal(row);
      });
    },

    patch(actor: Actor, goalId: string, input: GoalInput): Goal {
      return inTransaction(ctx, (tx) => {
        const row = requireGoal(tx, actor, goalId);
        if (input.projectId) assertProjectOfCompany(tx, row.companyId, input.projectId);
        const changes = changedFields(row, input);
        const fields = Object.keys(changes);
        if (fields.length === 0) return toGoal(row);
        const at = isoNow(ctx);
        const updated = tx.update(goals).set({ ...changes, updatedAt: at }).where(eq(goals.id, goalId)).returning().get();
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'goal.updated',
          entityType: 'goal',
          entityId: goalId,
          summary: `Goal "${updated.title}" updated: ${fields.join(', ')}`,
        });
        return toGoal(updated);
      });
    },
  };
}

export type GoalsService = ReturnType<typeof createGoalsService>;
