import { and, eq, sql } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import { issueInteractions, type IssueInteractionRow } from '../schema.js';
import { recordActivity } from '../../activity/service.js';
import type { Queryable } from '../../context.js';

export type SupersedeReason =
  | { reason: 'document_revised'; documentId: string; revisionId: string }
  | { reason: 'document_deleted'; documentId: string }
  | { reason: 'board_comment'; commentId: string };

/** Reads `payload.target` without trusting its shape: payloads were validated when stored, but by kind. */
export function confirmationTarget(row: Pick<IssueInteractionRow, 'payload'>): { documentId?: unknown; revisionId?: unknown } | null {
  const target = row.payload.target;
  return target && typeof target === 'object' ? (target as { documentId?: unknown; revisionId?: unknown }) : null;
}

/** The issue's pending confirmations; run on every board comment, so prepared once (issue 17). */
function pendingConfirmations(tx: Queryable, issueId: string): IssueInteractionRow[] {
  return prepared(tx, 'interactions.pendingConfirmations', (d) =>
    d
      .select()
      .from(issueInteractions)
      .where(and(eq(issueInteractions.issueId, sql.placeholder('issueId')), eq(issueInteractions.kind, 'request_confirmation'), eq(issueInteractions.status, 'pending')))
      .prepare(),
  ).all({ issueId });
}

/**
 * Marks the given pending interactions superseded, inside the caller's transaction. The system
 * resolves them: no person decided, the thing they asked about changed under them.
 */
export function markSuperseded(tx: Queryable, at: string, rows: IssueInteractionRow[], why: SupersedeReason): string[] {
  for (const row of rows) {
    tx.update(issueInteractions)
      .set({
        status: 'superseded',
        resolution: why,
        resolvedByType: 'system',
        resolvedById: null,
        resolvedAt: at,
        updatedAt: at,
      })
      .where(and(eq(issueInteractions.id, row.id), eq(issueInteractions.status, 'pending')))
      .run();
    recordActivity(tx, at, 'system', {
      companyId: row.companyId,
      action: 'issue.interaction_superseded',
      entityType: 'issue',
      entityId: row.issueId,
      summary: `Confirmation "${row.title}" superseded (${why.reason.replace('_', ' ')})`,
      details: { interactionId: row.id, kind: row.kind, ...why },
    });
  }
  return rows.map((r) => r.id);
}

/**
 * A document got a new revision (or, with `newRevisionId` null, was deleted): pending
 * confirmations about an older revision of it can no longer be answered meaningfully.
 */
export function supersedeForDocumentRevision(tx: Queryable, at: string, issueId: string, documentId: string, newRevisionId: string | null): string[] {
  const stale = pendingConfirmations(tx, issueId).filter((row) => {
    const target = confirmationTarget(row);
    return target?.documentId === documentId && target.revisionId !== newRevisionId;
  });
  const why: SupersedeReason = newRevisionId ? { reason: 'document_revised', documentId, revisionId: newRevisionId } : { reason: 'document_deleted', documentId };
  return markSuperseded(tx, at, stale, why);
}

/** The board commented: confirmations created with `supersedeOnUserComment` give way to the conversation. */
export function supersedeForBoardComment(tx: Queryable, at: string, issueId: string, commentId: string): string[] {
  const affected = pendingConfirmations(tx, issueId).filter((row) => row.payload.supersedeOnUserComment === true);
  return markSuperseded(tx, at, affected, { reason: 'board_comment', commentId });
}
