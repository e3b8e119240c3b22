import { and, eq, isNull } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../../db/keyset.js';
import { assets, type AssetRow } from '../../assets/schema.js';
import { createAssetsService, type AssetsService } from '../../assets/service.js';
import type { Actor } from '../../kernel/actor.js';
import { assertCompanyAccess } from '../../kernel/access.js';
import { forbidden, notFound } from '../../kernel/errors.js';
import { recordActivity } from '../../activity/service.js';
import type { CoreContext } from '../../context.js';
import { requireIssue, touchIssue } from '../lookup.js';
import { issues, type IssueRow } from '../schema.js';
import type { Attachment } from './contract.js';
import { limitsOf } from '../../limits/service.js';

export const attachmentContentUrl = (id: string): string => `/api/attachments/${id}/content`;

export function toAttachment(row: AssetRow): Attachment {
  return {
    id: row.id,
    companyId: row.companyId,
    // Attachment rows are always written with their issue.
    issueId: row.issueId!,
    fileName: row.originalName,
    contentType: row.contentType,
    byteSize: row.byteSize,
    sha256: row.sha256,
    createdAt: row.createdAt,
    createdByType: row.createdByType,
    createdById: row.createdById,
    contentUrl: attachmentContentUrl(row.id),
  };
}

export interface VerifiedFile {
  bytes: Buffer;
  fileName: string;
  /** Already checked against the bytes (content-types.ts). */
  contentType: string;
}

/**
 * Issue attachments: assets of kind `attachment` tied to an issue. The board and the agents of the
 * issue's company may upload and read; only the uploader or the board may delete.
 */
export function createAttachmentsService(ctx: CoreContext, store: AssetsService = createAssetsService(ctx)) {
  const issueOf = (row: AssetRow): IssueRow | undefined => ctx.db.select().from(issues).where(eq(issues.id, row.issueId!)).get();

  return {
    /**
     * The issue an upload goes to, checked before the body is read so a wrong path costs no
     * upload. An issue of another company than the path names is "not found", like a foreign one.
     */
    targetIssue(actor: Actor, companyId: string, issueRef: string): IssueRow {
      assertCompanyAccess(actor, companyId);
      const issue = requireIssue(ctx.db, actor, issueRef);
      if (issue.companyId !== companyId) throw notFound('Issue');
      return issue;
    },

    /** Within the uploader's rates and the company's attachment budget (limits/service.ts), or nothing is kept. */
    create(actor: Actor, issue: IssueRow, file: VerifiedFile): Attachment {
      const limits = limitsOf(ctx);
      const row = limits.upload(actor, file.bytes.length, () => {
        limits.assertAttachmentBudget(actor, issue.companyId, file.bytes.length);
        return store.store(
          actor,
          { companyId: issue.companyId, issueId: issue.id, kind: 'attachment', contentType: file.contentType, originalName: file.fileName || 'file', bytes: file.bytes },
          {
            activity: (r) => ({
              companyId: issue.companyId,
              action: 'issue.attachment_added',
              entityType: 'issue',
              entityId: issue.id,
              summary: `Attached "${r.originalName}" to ${issue.identifier} (${r.contentType}, ${r.byteSize} bytes)`,
              details: { attachmentId: r.id, fileName: r.originalName, contentType: r.contentType, byteSize: r.byteSize },
            }),
            afterInsert: (tx, _r, at) => touchIssue(tx, issue.id, at),
          },
        );
      });
      return toAttachment(row);
    },

    /** Live attachments, oldest first (rowid breaks ties between uploads in the same millisecond). */
    /** Oldest first. */
    list(actor: Actor, issueRef: string, page: KeysetQuery): KeysetPage<Attachment> {
      const issue = requireIssue(ctx.db, actor, issueRef);
      return keyset(assets, assets.createdAt, 'asc').pageOf(ctx.db, and(eq(assets.issueId, issue.id), eq(assets.kind, 'attachment'), isNull(assets.deletedAt)), page, toAttachment);
    },

    get(actor: Actor, attachmentId: string): AssetRow {
      return store.get(actor, attachmentId, 'attachment', 'Attachment');
    },

    open: store.open,

    remove(actor: Actor, attachmentId: string): void {
      const row = store.get(actor, attachmentId, 'attachment', 'Attachment');
      if (actor.kind === 'agent' && !(row.createdByType === 'agent' && row.createdById === actor.agentId)) {
        throw forbidden('Only the agent that uploaded an attachment, or the board, may delete it', 'not_uploader');
      }
      const issue = issueOf(row);
      store.remove(
        row,
        (tx, at) => {
          touchIssue(tx, row.issueId!, at);
          recordActivity(tx, at, actor, {
            companyId: row.companyId,
            action: 'issue.attachment_deleted',
            entityType: 'issue',
            entityId: row.issueId!,
            summary: `Removed attachment "${row.originalName}" from ${issue?.identifier ?? 'the issue'}`,
            details: { attachmentId: row.id, fileName: row.originalName },
          });
        },
        'Attachment',
      );
    },
  };
}

export type AttachmentsService = ReturnType<typeof createAttachmentsService>;
