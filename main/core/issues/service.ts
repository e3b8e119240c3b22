import { eq } from 'drizzle-orm';
import { issues, type IssueRow } from './schema.js';
import type { CreateIssueInput, Issue, IssueDetail, IssueWithLinks, PatchIssueInput } from './contract.js';
import { toIssue, requireIssueDetail } from './present.js';
import { requireIssue } from './lookup.js';
import { assertGoal, assertParent, assertProject, resolveAssignee } from './references.js';
import { checkStatusChange, RELEASING_STATUSES } from './status-rules.js';
import { insertIssue, priorityRank, wakeAssignee } from './insert.js';
import { insertComment } from './comments.js';
import { updateIssueRow, type IssueRowChanges } from './patch-row.js';
import { assertMayTakeOver } from './ownership.js';
import { withLinksJson, withLinksOne, withoutLinks } from './links.js';
import { encodeCursor, issueListJson, type IssueListQuery } from './list-query.js';
import { wakeUnblocked } from './blockers.js';
import { assertLabels, setIssueLabels } from '../labels/service.js';
import { limitsOf } from '../limits/service.js';
import type { Actor } from '../kernel/actor.js';
import { conflict, ServiceError } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { assertBoard } from '../kernel/access.js';
import { afterCommit, GROUPED, inTransaction, isoNow, type CoreContext } from '../context.js';
import { jsonPage } from '../kernel/json-text.js';

/** A list's filters as the route gives them: the assignee may still be a shortname. */
export type ListIssuesFilter = Omit<IssueListQuery, 'companyId'>;

/** A committed status change, for in-process followers such as the post-issue hooks (crm/hooks). */
export interface IssueStatusChange {
  issueId: string;
  companyId: string;
  from: IssueRow['status'];
  to: IssueRow['status'];
  actor: Actor;
}
export type IssueStatusListener = (change: IssueStatusChange) => void;

export function createIssuesService(ctx: CoreContext) {
  const statusListeners = new Set<IssueStatusListener>();
  /** Called after the transaction committed; a listener that throws never fails the issue request. */
  const notifyStatus = (change: IssueStatusChange) => {
    for (const listener of statusListeners) {
      try {
        listener(change);
      } catch (err) {
        ctx.logger.error('issue status listener failed', { issueId: change.issueId, message: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  return {
    /** Follows committed status changes made through `patch`; returns the unsubscribe function. */
    onStatusChanged(listener: IssueStatusListener): () => void {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },

    create(actor: Actor, companyId: string, input: CreateIssueInput): IssueWithLinks {
      return inTransaction(ctx, (tx) => {
        if (assertCompany(tx, actor, companyId) === 'archived') throw conflict('company_archived', 'Unarchive the company before adding issues');
        const status = input.status ?? 'backlog';
        if (status === 'in_progress') {
          throw new ServiceError(409, 'checkout_required', 'Create the issue, then check it out to start it (POST /api/issues/{id}/checkout)');
        }
        const assignee = input.assigneeAgentId ? resolveAssignee(tx, companyId, input.assigneeAgentId) : null;
        if (input.parentId) assertParent(tx, companyId, null, input.parentId);
        if (input.projectId) assertProject(tx, companyId, input.projectId);
        if (input.goalId) assertGoal(tx, companyId, input.goalId);
        if (input.labelIds) assertLabels(tx, companyId, input.labelIds);
        const row = insertIssue(tx, isoNow(ctx), actor, {
          companyId,
          title: input.title,
          description: input.description,
          status,
          priority: input.priority ?? 'medium',
          assigneeAgentId: assignee?.id ?? null,
          parentId: input.parentId,
          projectId: input.projectId,
          goalId: input.goalId,
          billingCode: input.billingCode,
        });
        if (!input.labelIds?.length) return withoutLinks(toIssue(row));
        setIssueLabels(tx, row.createdAt, row, input.labelIds);
        return withLinksOne(tx, toIssue(row));
      }, GROUPED);
    },

    /** Sorted by priority, then most recent activity; cursor-paginated. */
    list(actor: Actor, companyId: string, filter: ListIssuesFilter): { items: IssueWithLinks[]; nextCursor: string | null } {
      assertCompany(ctx.db, actor, companyId);
      let assigneeAgentId: string | undefined;
      if (filter.assigneeAgentId) {
        // An unknown shortname matches nothing rather than failing: it is a filter, not a write.
        const ref = filter.assigneeAgentId;
        try {
          assigneeAgentId = resolveAssignee(ctx.db, companyId, ref).id;
        } catch {
          assigneeAgentId = ref;
        }
      }
      const rows = issueListJson(ctx.db, { ...filter, companyId, assigneeAgentId });
      const items = rows.slice(0, filter.limit);
      const last = rows.length > filter.limit ? items[items.length - 1] : undefined;
      // The cursor's activity time is read back from the last issue's JSON (one row, not a column more per row).
      const cursor = last ? encodeCursor({ id: last.id, priorityRank: last.priorityRank, lastActivityAt: (JSON.parse(last.json) as Issue).lastActivityAt }) : null;
      return jsonPage<{ items: IssueWithLinks[]; nextCursor: string | null }>(withLinksJson(ctx.db, items), cursor);
    },

    /**
     * Soft delete (board only), as documents are deleted: the issue leaves lists, search, the inbox
     * and lookups (404); work on it stops (an open issue becomes cancelled, its checkout ends).
     */
    remove(actor: Actor, idOrIdentifier: string): void {
      assertBoard(actor, 'delete issues');
      inTransaction(ctx, (tx) => {
        const row = requireIssue(tx, actor, idOrIdentifier);
        const at = isoNow(ctx);
        const open = row.status !== 'done' && row.status !== 'cancelled';
        tx.update(issues)
          .set({ deletedAt: at, updatedAt: at, checkoutAgentId: null, checkoutRunId: null, checkedOutAt: null, ...(open ? { status: 'cancelled' as const, cancelledAt: at } : {}) })
          .where(eq(issues.id, row.id))
          .run();
        recordActivity(tx, at, actor, { companyId: row.companyId, action: 'issue.deleted', entityType: 'issue', entityId: row.id, summary: `${row.identifier} deleted`, details: { from: row.status } });
      });
    },

    get(actor: Actor, idOrIdentifier: string): IssueDetail {
      return requireIssueDetail(ctx.db, actor, idOrIdentifier);
    },

    patch(actor: Actor, idOrIdentifier: string, input: PatchIssueInput): IssueWithLinks {
      const write = () => inTransaction(ctx, (tx) => {
        const row = requireIssue(tx, actor, idOrIdentifier);
        const at = isoNow(ctx);
        const changes: IssueRowChanges = {};
        for (const k of ['title', 'description', 'billingCode'] as const) {
          if (input[k] !== undefined && input[k] !== row[k]) (changes as Record<string, unknown>)[k] = input[k];
        }
        if (input.priority !== undefined && input.priority !== row.priority) {
          changes.priority = input.priority;
          changes.priorityRank = priorityRank(input.priority);
        }
        if (input.projectId !== undefined && input.projectId !== row.projectId) {
          if (input.projectId) assertProject(tx, row.companyId, input.projectId);
          changes.projectId = input.projectId;
        }
        if (input.goalId !== undefined && input.goalId !== row.goalId) {
          if (input.goalId) assertGoal(tx, row.companyId, input.goalId);
          changes.goalId = input.goalId;
        }
        if (input.parentId !== undefined && input.parentId !== row.parentId) {
          if (input.parentId) assertParent(tx, row.companyId, row.id, input.parentId);
          changes.parentId = input.parentId;
        }
        if (input.assigneeAgentId !== undefined) {
          const next = input.assigneeAgentId ? resolveAssignee(tx, row.companyId, input.assigneeAgentId).id : null;
          if (next !== row.assigneeAgentId) {
            assertMayTakeOver(tx, actor, row);
            changes.assigneeAgentId = next;
            // A new assignee starts fresh: the old checkout no longer stands.
            if (row.checkoutAgentId && row.checkoutAgentId !== next) {
              Object.assign(changes, { checkoutAgentId: null, checkoutRunId: null, checkedOutAt: null });
              if (row.status === 'in_progress') changes.status = 'todo';
            }
          }
        }
        if (input.status !== undefined && input.status !== row.status) {
          assertMayTakeOver(tx, actor, row);
          const holds = actor.kind === 'agent' && row.checkoutAgentId === actor.agentId;
          const verdict = checkStatusChange({
            from: row.status,
            to: input.status,
            actor: actor.kind,
            holdsCheckout: holds,
            checkedOutByOther: row.checkoutAgentId !== null && !holds,
            isAssignee: actor.kind === 'agent' && row.assigneeAgentId === actor.agentId,
          });
          if (!verdict.ok) throw new ServiceError(verdict.status, verdict.code, verdict.message);
          changes.status = input.status;
          if (input.status === 'in_progress' && !row.startedAt) changes.startedAt = at;
          if (input.status === 'done') changes.completedAt = at;
          if (row.status === 'done') changes.completedAt = null;
          changes.cancelledAt = input.status === 'cancelled' ? at : null;
          if (RELEASING_STATUSES.includes(input.status)) Object.assign(changes, { checkoutAgentId: null, checkoutRunId: null, checkedOutAt: null });
        }
        const fields = Object.keys(changes).filter((f) => !['priorityRank', 'checkoutAgentId', 'checkoutRunId', 'checkedOutAt', 'startedAt', 'completedAt', 'cancelledAt'].includes(f));
        if (input.labelIds !== undefined && setIssueLabels(tx, at, row, input.labelIds)) {
          recordActivity(tx, at, actor, { companyId: row.companyId, action: 'issue.labels_changed', entityType: 'issue', entityId: row.id, summary: `${row.identifier} labels set`, details: { labelIds: input.labelIds } });
        }
        if (fields.length === 0 && input.comment === undefined) return withLinksOne(tx, toIssue(row));
        let updated = row;
        if (Object.keys(changes).length > 0) {
          updated = updateIssueRow(tx, row.id, at, changes);
          if (changes.assigneeAgentId) wakeAssignee(tx, at, actor, updated);
          if (changes.status) {
            const change: IssueStatusChange = { issueId: row.id, companyId: row.companyId, from: row.status, to: changes.status, actor };
            afterCommit(tx, () => notifyStatus(change));
          }
          if (changes.status === 'done') wakeUnblocked(tx, at, actor, updated, `${row.identifier} is done`);
          recordActivity(tx, at, actor, {
            companyId: row.companyId,
            action: changes.status ? 'issue.status_changed' : 'issue.updated',
            entityType: 'issue',
            entityId: row.id,
            summary: changes.status ? `${row.identifier} moved from ${row.status} to ${changes.status}` : `${row.identifier} updated: ${fields.join(', ')}`,
            // The assignee's before and after let the issue's timeline say who it moved from and to.
            details: {
              fields,
              ...(changes.status ? { from: row.status, to: changes.status } : {}),
              ...(changes.assigneeAgentId !== undefined ? { assigneeFrom: row.assigneeAgentId, assigneeTo: changes.assigneeAgentId } : {}),
            },
          });
        }
        if (input.comment !== undefined) updated = insertComment(tx, at, actor, updated, input.comment).issue;
        return withLinksOne(tx, toIssue(updated));
      }, GROUPED);
      return input.comment === undefined ? write() : limitsOf(ctx).comment(actor, input.comment, write);
    },
  };
}

export type IssuesService = ReturnType<typeof createIssuesService>;
