import { asc, eq, sql } from 'drizzle-orm';
import { projects, type ProjectRow } from './schema.js';
import type { Project } from './contract.js';
import { newId } from '../ids.js';
import type { Actor } from '../http/actor.js';
import { assertRecordAccess } from '../access.js';
import { notFound } from '../errors.js';
import { recordActivity } from '../activity/service.js';
import { requireCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { changedFields } from '../patch.js';

const toProject = (row: ProjectRow): Project => ({ ...row });

export function requireProject(db: Queryable, actor: Actor, projectId: string): ProjectRow {
  const row = db.select().from(projects).where(eq(projects.id, projectId)).get();
  if (!row) throw notFound('Project');
  assertRecordAccess(actor, row.companyId, 'Project');
  return row;
}

type ProjectInput = { name?: string | undefined; description?: string | undefined; status?: ProjectRow['status'] | undefined };

/** Projects group issues and costs. Board and the company's agents may create and edit them. */
export function createProjectsService(ctx: CoreContext) {
  return {
    list(actor: Actor, companyId: string): Project[] {
      requireCompany(ctx.db, actor, companyId);
      return ctx.db.select().from(projects).where(eq(projects.companyId, companyId)).orderBy(asc(projects.createdAt), sql`rowid`).all().map(toProject);
    },

    get: (actor: Actor, projectId: string): Project => toProject(requireProject(ctx.db, actor, projectId)),

    create(actor: Actor, companyId: string, input: ProjectInput & { name: string }): Project {
      return inTransaction(ctx, (tx) => {
        requireCompany(tx, actor, companyId);
        const at = isoNow(ctx);
        const row = tx
          .insert(projects)
          .values({ id: newId(), companyId, name: input.name, description: input.description ?? '', status: input.status ?? 'active', createdAt: at, updatedAt: at })
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'project.created', entityType: 'project', entityId: row.id, summary: `Project "${row.name}" created` });
        return toProject(row);
      });
    },

    patch(actor: Actor, projectId: string, input: ProjectInput): Project {
      return inTransaction(ctx, (tx) => {
        const row = requireProject(tx, actor, projectId);
        const changes = changedFields(row, input);
        const fields = Object.keys(changes);
        if (fields.length === 0) return toProject(row);
        const at = isoNow(ctx);
        const updated = tx.update(projects).set({ ...changes, updatedAt: at }).where(eq(projects.id, projectId)).returning().get();
        recordActivity(tx, at, actor, {
          companyId: row.companyId,
          action: 'project.updated',
          entityType: 'project',
          entityId: projectId,
          summary: `Project "${updated.name}" updated: ${fields.join(', ')}`,
        });
        return toProject(updated);
      });
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
