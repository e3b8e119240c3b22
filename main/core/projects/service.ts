import { eq } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { projects, type ProjectRow } from './schema.js';
import type { Project } from './contract.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard, assertRecordAccess } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { changedFields } from '../kernel/patch.js';
import { validateWorkspace } from '../workspaces/validate.js';
import { assertRoomFor } from '../limits/capacity.js';

const toProject = ({ workspaceRepoPath, workspaceBaseBranch, ...row }: ProjectRow): Project => ({
  ...row,
  workspace: workspaceRepoPath && workspaceBaseBranch ? { repoPath: workspaceRepoPath, baseBranch: workspaceBaseBranch } : null,
});

export function requireProject(db: Queryable, actor: Actor, projectId: string): ProjectRow {
  const row = db.select().from(projects).where(eq(projects.id, projectId)).get();
  if (!row) throw notFound('Project');
  assertRecordAccess(actor, row.companyId, 'Project');
  return row;
}

type ProjectInput = {
  name?: string | undefined;
  description?: string | undefined;
  status?: ProjectRow['status'] | undefined;
  workspace?: { repoPath: string; baseBranch?: string | undefined } | null | undefined;
  setupCommand?: string | null | undefined;
};

/** The row fields of the input, the workspace checked against the disk (400 `invalid_workspace`). */
function rowFields(ctx: CoreContext, actor: Actor, { workspace, ...rest }: ProjectInput) {
  // The setup command runs outside the agent sandbox and the repository is what agents may clone:
  // only the board chooses them.
  if (workspace !== undefined || rest.setupCommand !== undefined) assertBoard(actor, 'set a project\'s workspace or setup command');
  if (workspace === undefined) return rest;
  const checked = workspace ? validateWorkspace(workspace, ctx.paths.home) : null;
  return { ...rest, workspaceRepoPath: checked?.repoPath ?? null, workspaceBaseBranch: checked?.baseBranch ?? null };
}

/** Projects group issues and costs. Board and the company's agents may create and edit them. */
export function createProjectsService(ctx: CoreContext) {
  return {
    /** Oldest first. */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Project> {
      assertCompany(ctx.db, actor, companyId);
      return keyset(projects, projects.createdAt, 'asc').pageOf(ctx.db, eq(projects.companyId, companyId), page, toProject);
    },

    get: (actor: Actor, projectId: string): Project => toProject(requireProject(ctx.db, actor, projectId)),

    create(actor: Actor, companyId: string, input: ProjectInput & { name: string }): Project {
      assertCompany(ctx.db, actor, companyId);
      const fields = rowFields(ctx, actor, input);
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        assertRoomFor(tx, 'projects', companyId);
        const at = isoNow(ctx);
        const row = tx
          .insert(projects)
          .values({ ...fields, id: newId(), companyId, name: input.name, description: input.description ?? '', status: input.status ?? 'active', createdAt: at, updatedAt: at })
          .returning()
          .get();
        recordActivity(tx, at, actor, { companyId, action: 'project.created', entityType: 'project', entityId: row.id, summary: `Project "${row.name}" created` });
        return toProject(row);
      });
    },

    patch(actor: Actor, projectId: string, input: ProjectInput): Project {
      requireProject(ctx.db, actor, projectId);
      const wanted = rowFields(ctx, actor, input);
      return inTransaction(ctx, (tx) => {
        const row = requireProject(tx, actor, projectId);
        const changes = changedFields(row, wanted);
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
