import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { and, eq } from 'drizzle-orm';
import { approvalComments, approvalIssues } from './schema.js';
import type { ApprovalComment } from './contract.js';
import { approvalLabel, requireApproval } from './records.js';
import { issues } from '../issues/schema.js';
import type { Issue } from '../issues/contract.js';
import { toIssue } from '../issues/present.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext } from '../context.js';

type CommentRow = typeof approvalComments.$inferSelect;

const toComment = (row: CommentRow): ApprovalComment => ({
  id: row.id,
  approvalId: row.approvalId,
  authorType: row.authorType,
  authorAgentId: row.authorAgentId,
  body: row.body,
  createdAt: row.createdAt,
});

/** The discussion around an approval, and the issues it is linked to. Readable and writable by the board and the company's agents. */
export function createApprovalCommentsService(ctx: CoreContext) {
  return {
    /** Oldest first, like an issue thread. */
    list(actor: Actor, approvalId: string, page: KeysetQuery): KeysetPage<ApprovalComment> {
      const approval = requireApproval(ctx.db, actor, approvalId);
      return keyset(approvalComments, approvalComments.createdAt, 'asc').pageOf(ctx.db, eq(approvalComments.approvalId, approval.id), page, toComment);
    },

    create(actor: Actor, approvalId: string, body: string): ApprovalComment {
      return inTransaction(ctx, (tx) => {
        const approval = requireApproval(tx, actor, approvalId);
        const at = isoNow(ctx);
        const row = tx
          .insert(approvalComments)
          .values({
            id: newId(),
            approvalId: approval.id,
            authorType: actor.kind,
            authorAgentId: actor.kind === 'agent' ? actor.agentId : null,
            body,
            createdAt: at,
          })
          .returning()
          .get();
        recordActivity(tx, at, actor, {
          companyId: approval.companyId,
          action: 'approval.commented',
          entityType: 'approval',
          entityId: approval.id,
          summary: `Comment on approval: ${approvalLabel(approval)}`,
          details: { commentId: row.id },
        });
        return toComment(row);
      });
    },

    /**
     * Linked issues in the order they were linked (the order of `issueIds`), in the issue response
     * shape. One request links them all at one time, so the rowid keeps that order within it.
     */
    issues(actor: Actor, approvalId: string, page: KeysetQuery): KeysetPage<Issue> {
      const approval = requireApproval(ctx.db, actor, approvalId);
      const order = keyset(approvalIssues, approvalIssues.createdAt, 'asc');
      const rows = ctx.db
        .select({ issue: issues, linkedAt: approvalIssues.createdAt, rowid: order.rowid })
        .from(approvalIssues)
        .innerJoin(issues, eq(issues.id, approvalIssues.issueId))
        .where(and(eq(approvalIssues.approvalId, approval.id), order.after(page.after)))
        .orderBy(...order.orderBy)
        .limit(page.limit + 1)
        .all();
      return order.page(rows, page.limit, (r) => r.linkedAt, (r) => toIssue(r.issue));
    },
  };
}
