import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { issueWorkspaces, type IssueWorkspaceRow } from './schema.js';
import { issues } from '../issues/schema.js';
import { projects } from '../projects/schema.js';
import { requireIssue } from '../issues/lookup.js';
import { assertBoard } from '../kernel/access.js';
import { conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { flushCommits, inTransaction, type CoreContext } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import { bytesUnder } from '../retention/disk.js';
import { readRetentionSettings } from '../retention/settings.js';
import { readLimitSettings } from '../limits/settings.js';
import { branchFor, createClone, removePartials, sanitizeClone, TamperedError, type CloneFiles } from './clone.js';
import { inspectWorkspace, workspaceDiff, type WorkspaceState } from './inspect.js';
import { mergeWorkspace } from './merge.js';
import { attributeRuns, branchCommits } from './commits.js';
import type { ActivityKind } from '../kernel/events.js';

/** What a run of an issue with a workspace is given (run-execution.ts applies it). */
export interface RunWorkspace {
  path: string;
  branch: string;
  baseBranch: string;
  /** Folders the run may write besides nothing else of the repository: the clone itself. */
  writablePaths: string[];
  env: Record<string, string>;
  templateVars: Record<string, string>;
  promptNote: string;
  release: () => void;
}


/** Folder names from identifiers: anything but letters, digits, dot, dash and underscore becomes `_`. */
const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_');

export function createWorkspacesService(ctx: CoreContext) {
  const root = path.join(ctx.paths.home, 'worktrees');
  // One holder per issue: a run, a merge or a discard. Runs queue behind each other; merge and discard answer 409.
  const busy = new Map<string, Promise<void>>();

  async function lock(issueId: string): Promise<() => void> {
    for (;;) {
      const held = busy.get(issueId);
      if (!held) break;
      await held;
    }
    let release!: () => void;
    busy.set(issueId, new Promise<void>((r) => (release = r)));
    return () => {
      busy.delete(issueId);
      release();
    };
  }

  const files = (row: IssueWorkspaceRow): CloneFiles => JSON.parse(row.gitConfig) as CloneFiles;

  function logAction(actor: Actor | 'system', row: Pick<IssueWorkspaceRow, 'companyId' | 'issueId'>, action: ActivityKind, summary: string, details?: Record<string, unknown>) {
    inTransaction(ctx, (tx) => recordActivity(tx, ctx.clock.now().toISOString(), actor, { companyId: row.companyId, action, entityType: 'issue', entityId: row.issueId, summary, ...(details ? { details } : {}) }));
  }

  /** The clone made safe for the server's own git commands; a restored config is in the activity log. */
  function sanitized(row: IssueWorkspaceRow): IssueWorkspaceRow {
    try {
      if (sanitizeClone(row.path, files(row))) logAction('system', row, 'workspace.config_restored', `The repository settings of ${row.branch} were changed from inside the workspace and have been restored`);
    } catch (err) {
      if (err instanceof TamperedError) throw conflict('workspace_tampered', `The workspace of ${row.branch} is damaged: ${err.message}`);
      throw err;
    }
    return row;
  }

  function requireWorkspace(actor: Actor, issueId: string): { row: IssueWorkspaceRow; identifier: string; title: string } {
    const issue = requireIssue(ctx.db, actor, issueId);
    const row = ctx.db.select().from(issueWorkspaces).where(eq(issueWorkspaces.issueId, issue.id)).get();
    if (!row || !existsSync(row.path)) throw notFound('Workspace');
    return { row, identifier: issue.identifier, title: issue.title };
  }

  function assertIdle(row: IssueWorkspaceRow) {
    if (busy.has(row.issueId)) throw conflict('workspace_busy', `A run of this issue is using ${row.branch} right now; try again when it has ended`);
  }

  /** Bytes of every company's workspaces (the clones' own files; shared objects are the founder's). */
  function diskByCompany(): { companyId: string; bytes: number }[] {
    if (!existsSync(root)) return [];
    return readdirSync(root).map((companyId) => ({ companyId, bytes: bytesUnder(path.join(root, companyId)) }));
  }

  /** Whether retention may remove the workspace: no run in it, and nothing unmerged or uncommitted. */
  async function removable(ws: IssueWorkspaceRow): Promise<boolean> {
    if (busy.has(ws.issueId) || !existsSync(ws.path)) return false;
    try {
      const state = await inspectWorkspace(sanitized(ws));
      return !state.dirty && state.ahead === 0;
    } catch {
      return false;
    }
  }

  async function remove(row: IssueWorkspaceRow) {
    rmSync(row.path, { recursive: true, force: true });
    // Committed at once, not with an open commit group: the folder is already gone.
    flushCommits(ctx.db);
    ctx.db.delete(issueWorkspaces).where(eq(issueWorkspaces.issueId, row.issueId)).run();
  }

  /** What the board reviews: the state, with the branch's commits and the runs that made them. */
  const view = async (row: IssueWorkspaceRow, s: WorkspaceState) => ({
    path: row.path,
    branch: row.branch,
    baseBranch: row.baseBranch,
    repoPath: row.repoPath,
    headSha: s.headSha,
    baseSha: s.baseSha,
    mergeBase: s.mergeBase,
    dirty: s.dirty,
    ahead: s.ahead,
    behind: s.behind,
    mergedAt: row.mergedAt,
    files: s.files,
    commits: attributeRuns(ctx.db, row.issueId, await branchCommits(row, s), ctx.clock.now()),
  });

  return {
    root,

    /** At start: folders of interrupted creations are removed (a row is written only after the rename). */
    recover(): string[] {
      return removePartials(root, (p) => (existsSync(p) ? readdirSync(p) : []));
    },

    /**
     * The workspace of a run's issue, created on its first run (setup output goes to `onOutput`,
     * the run's transcript). Null when the run has no issue or the issue's project no workspace.
     * Holds the issue's lock until `release`: two runs of one issue never overlap in its clone.
     */
    async forRun(run: { taskIssueId: string | null }, onOutput: (stream: 'stdout' | 'stderr', text: string) => void): Promise<RunWorkspace | null> {
      if (!run.taskIssueId) return null;
      const issue = ctx.db.select().from(issues).where(eq(issues.id, run.taskIssueId)).get();
      if (!issue?.projectId) return null;
      const project = ctx.db.select().from(projects).where(eq(projects.id, issue.projectId)).get();
      if (!project?.workspaceRepoPath || !project.workspaceBaseBranch) return null;
      const release = await lock(issue.id);
      try {
        let row = ctx.db.select().from(issueWorkspaces).where(eq(issueWorkspaces.issueId, issue.id)).get();
        if (!row || !existsSync(row.path)) {
          const spec = { repoPath: project.workspaceRepoPath, baseBranch: project.workspaceBaseBranch, branch: branchFor(issue.identifier), dir: path.join(root, safeName(issue.companyId), safeName(issue.identifier)) };
          const created = await createClone({ ...spec, setupCommand: project.setupCommand, onOutput });
          const at = ctx.clock.now().toISOString();
          const values = { issueId: issue.id, companyId: issue.companyId, projectId: project.id, path: spec.dir, branch: spec.branch, repoPath: spec.repoPath, baseBranch: spec.baseBranch, gitConfig: JSON.stringify(created), createdAt: at, mergedAt: null };
          row = inTransaction(ctx, (tx) => {
            const saved = tx.insert(issueWorkspaces).values(values).onConflictDoUpdate({ target: issueWorkspaces.issueId, set: values }).returning().get();
            recordActivity(tx, at, 'system', { companyId: issue.companyId, action: 'workspace.created', entityType: 'issue', entityId: issue.id, summary: `Workspace ${spec.branch} created from ${spec.baseBranch}`, details: { path: spec.dir } });
            return saved;
          });
          onOutput('stdout', `[headcount] workspace ${row.path} created on branch ${row.branch} from ${row.baseBranch}\n`);
        }
        const ws = row;
        return {
          path: ws.path,
          branch: ws.branch,
          baseBranch: ws.baseBranch,
          writablePaths: [ws.path],
          env: { SERVICE_WORKSPACE_PATH: ws.path, SERVICE_WORKSPACE_BRANCH: ws.branch, SERVICE_WORKSPACE_BASE_BRANCH: ws.baseBranch },
          templateVars: { workspacePath: ws.path, workspaceBranch: ws.branch, workspaceBaseBranch: ws.baseBranch },
          promptNote: `\n\nYour working directory ${ws.path} is a git repository on branch ${ws.branch}, made for this issue from ${ws.baseBranch}. Do the work there and commit it on ${ws.branch}; the board reviews and merges it.`,
          release,
        };
      } catch (err) {
        release();
        throw err;
      }
    },

    async status(actor: Actor, issueId: string) {
      const { row } = requireWorkspace(actor, issueId);
      return view(row, await inspectWorkspace(sanitized(row)));
    },

    async diff(actor: Actor, issueId: string) {
      const { row } = requireWorkspace(actor, issueId);
      const ws = sanitized(row);
      return workspaceDiff(ws, await inspectWorkspace(ws));
    },

    async merge(actor: Actor, issueId: string) {
      assertBoard(actor, 'merge a workspace');
      const { row, identifier, title } = requireWorkspace(actor, issueId);
      assertIdle(row);
      const release = await lock(row.issueId);
      try {
        const outcome = await mergeWorkspace(sanitized(row), identifier, title);
        const at = ctx.clock.now().toISOString();
        inTransaction(ctx, (tx) => {
          tx.update(issueWorkspaces).set({ mergedAt: at }).where(eq(issueWorkspaces.issueId, row.issueId)).run();
          recordActivity(tx, at, actor, { companyId: row.companyId, action: 'workspace.merged', entityType: 'issue', entityId: row.issueId, summary: `${row.branch} merged into ${row.baseBranch} (${outcome.kind.replace('_', ' ')})`, details: { ...outcome } });
        });
        return { ...outcome, workspace: await view({ ...row, mergedAt: at }, await inspectWorkspace(row)) };
      } catch (err) {
        if ((err as { code?: unknown }).code && (err as { status?: number }).status === 409) logAction(actor, row, 'workspace.merge_refused', `Merge of ${row.branch} refused: ${(err as Error).message}`);
        throw err;
      } finally {
        release();
      }
    },

    async discard(actor: Actor, issueId: string, confirm: boolean) {
      assertBoard(actor, 'discard a workspace');
      const { row } = requireWorkspace(actor, issueId);
      assertIdle(row);
      const release = await lock(row.issueId);
      try {
        const state = await inspectWorkspace(sanitized(row));
        if ((state.dirty || state.ahead > 0) && !confirm) {
          throw conflict('workspace_has_work', `${row.branch} has ${[state.dirty ? 'uncommitted changes' : '', state.ahead > 0 ? `${state.ahead} unmerged commit(s)` : ''].filter(Boolean).join(' and ')}; send {"confirm": true} to discard them`, { dirty: state.dirty, ahead: state.ahead });
        }
        await remove(row);
        logAction(actor, row, 'workspace.discarded', `Workspace ${row.branch} discarded`, { dirty: state.dirty, ahead: state.ahead, headSha: state.headSha });
        return { discarded: true as const, headSha: state.headSha };
      } finally {
        release();
      }
    },

    /**
     * Retention: the workspace of a done or cancelled issue is removed once it holds nothing
     * unmerged and nothing uncommitted, when merged or `workspaceRetentionHours` after the issue last changed.
     * Workspaces with work stay until the board discards them with confirmation.
     */
    async sweep(now = ctx.clock.now()): Promise<string[]> {
      const hours = readRetentionSettings(ctx.db).workspaceRetentionHours;
      const removed: string[] = [];
      const rows = ctx.db.select({ ws: issueWorkspaces, status: issues.status, updatedAt: issues.updatedAt }).from(issueWorkspaces).innerJoin(issues, eq(issues.id, issueWorkspaces.issueId)).all();
      const finished = rows.filter((r) => r.status === 'done' || r.status === 'cancelled');
      for (const { ws, status, updatedAt } of finished) {
        if (!ws.mergedAt && now.getTime() - Date.parse(updatedAt) < hours * 3600_000) continue;
        if (!(await removable(ws))) continue;
        await remove(ws);
        logAction('system', ws, 'workspace.removed', `Workspace ${ws.branch} removed (issue ${status}${ws.mergedAt ? ', merged' : ''})`);
        removed.push(ws.path);
      }
      // Past a company's workspace budget, finished issues' workspaces go before their time,
      // the longest finished first, under the same rule: never one holding unmerged or uncommitted work.
      const budget = readLimitSettings(ctx.db).workspaceCompanyBudgetBytes;
      if (budget === 0) return removed;
      for (const { companyId, bytes } of diskByCompany()) {
        let used = bytes;
        const oldestFirst = finished.filter((r) => r.ws.companyId === companyId && !removed.includes(r.ws.path)).sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
        for (const { ws, status } of oldestFirst) {
          if (used <= budget) break;
          if (!(await removable(ws))) continue;
          const size = bytesUnder(ws.path);
          await remove(ws);
          logAction('system', ws, 'workspace.removed', `Workspace ${ws.branch} removed (issue ${status}; the company's workspaces were over their budget)`, { usedBytes: used, budgetBytes: budget });
          removed.push(ws.path);
          used -= size;
        }
      }
      return removed;
    },

    /** Sweeps now and then hourly; a failed sweep is logged, never fatal. */
    startSweeping(): { stop(): void } {
      const pass = () => {
        this.sweep().catch((err: unknown) => ctx.logger.error('workspace retention failed', { message: err instanceof Error ? err.message : String(err) }));
      };
      pass();
      const timer = setInterval(pass, 3600_000);
      timer.unref();
      return { stop: () => clearInterval(timer) };
    },

    diskByCompany,
  };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
