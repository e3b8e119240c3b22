import { and, asc, eq, isNull, ne, type SQL } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import type { Actor } from '../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { conflict, notFound } from '../kernel/errors.js';
import { validationError } from '../kernel/error-contract.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { issues } from '../issues/schema.js';
import { newId } from '../kernel/ids.js';
import { crmContentPieces, type CrmContentPieceRow } from './schema.js';
import type { ContentPiece, CreateContentPieceInput, ListContentPiecesQuery, UpdateContentPieceInput } from './contract.js';
import { toContentPiece } from './present.js';
import type { ActivityKind } from '../kernel/events.js';

/** Live content pieces linked to an issue (the post-issue hooks' input). */
export function listContentPiecesForIssue(db: Queryable, companyId: string, issueId: string): CrmContentPieceRow[] {
  return db
    .select()
    .from(crmContentPieces)
    .where(and(eq(crmContentPieces.companyId, companyId), eq(crmContentPieces.issueId, issueId), isNull(crmContentPieces.deletedAt)))
    .orderBy(asc(crmContentPieces.createdAt), asc(crmContentPieces.id))
    .all();
}

function requirePiece(db: Queryable, companyId: string, pieceId: string): CrmContentPieceRow {
  const row = db
    .select()
    .from(crmContentPieces)
    .where(and(eq(crmContentPieces.id, pieceId), eq(crmContentPieces.companyId, companyId), isNull(crmContentPieces.deletedAt)))
    .get();
  if (!row) throw notFound('Content piece');
  return row;
}

function assertIssueOfCompany(db: Queryable, companyId: string, issueId: string | null | undefined): void {
  if (!issueId) return;
  const row = db.select({ id: issues.id }).from(issues).where(and(eq(issues.id, issueId), eq(issues.companyId, companyId))).get();
  if (!row) throw validationError([{ location: 'body', path: 'body.issueId', message: 'must be an issue of the same company' }]);
}

/** One live piece per company and sourcePath (spec 8); a soft-deleted piece frees its path. */
function assertPathFree(db: Queryable, companyId: string, sourcePath: string, exceptId: string | null): void {
  const filters: SQL[] = [eq(crmContentPieces.companyId, companyId), eq(crmContentPieces.sourcePath, sourcePath), isNull(crmContentPieces.deletedAt)];
  if (exceptId) filters.push(ne(crmContentPieces.id, exceptId));
  const other = db.select({ id: crmContentPieces.id }).from(crmContentPieces).where(and(...filters)).get();
  if (other) throw conflict('duplicate_source_path', `A content piece with sourcePath "${sourcePath}" already exists in this company`, { id: other.id });
}

/** Content pieces: the company's agents and the board read and write them (agents write the content). */
export function createContentPiecesService(ctx: CoreContext) {
  function record(tx: Queryable, at: string, actor: Actor, row: CrmContentPieceRow, action: ActivityKind, summary: string): void {
    recordActivity(tx, at, actor, { companyId: row.companyId, action, entityType: 'crm_content_piece', entityId: row.id, summary, details: { sourcePath: row.sourcePath } });
  }

  return {
    /** Oldest first (created, then written; see outboxOrder), one keyset page at a time. */
    list(actor: Actor, companyId: string, query: ListContentPiecesQuery, page: KeysetQuery): KeysetPage<ContentPiece> {
      assertCompany(ctx.db, actor, companyId);
      const filters: (SQL | undefined)[] = [eq(crmContentPieces.companyId, companyId), isNull(crmContentPieces.deletedAt)];
      if (query.niche) filters.push(eq(crmContentPieces.niche, query.niche));
      if (query.channelIntent) filters.push(eq(crmContentPieces.channelIntent, query.channelIntent));
      if (query.sourcePath !== undefined) filters.push(eq(crmContentPieces.sourcePath, query.sourcePath));
      if (query.issueId) filters.push(eq(crmContentPieces.issueId, query.issueId));
      return keyset(crmContentPieces, crmContentPieces.createdAt, 'asc').pageOf(ctx.db, and(...filters), page, toContentPiece);
    },

    get(actor: Actor, companyId: string, pieceId: string): ContentPiece {
      assertCompany(ctx.db, actor, companyId);
      return toContentPiece(requirePiece(ctx.db, companyId, pieceId));
    },

    create(actor: Actor, companyId: string, input: CreateContentPieceInput): ContentPiece {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        assertIssueOfCompany(tx, companyId, input.issueId);
        assertPathFree(tx, companyId, input.sourcePath, null);
        const at = isoNow(ctx);
        const row = tx
          .insert(crmContentPieces)
          .values({ id: newId(), companyId, ...input, createdAt: at, updatedAt: at })
          .returning()
          .get();
        record(tx, at, actor, row, 'crm.content_piece.created', `Content piece "${row.sourcePath}" created`);
        return toContentPiece(row);
      });
    },

    update(actor: Actor, companyId: string, pieceId: string, input: UpdateContentPieceInput): ContentPiece {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requirePiece(tx, companyId, pieceId);
        assertIssueOfCompany(tx, companyId, input.issueId);
        if (input.sourcePath !== undefined && input.sourcePath !== row.sourcePath) assertPathFree(tx, companyId, input.sourcePath, row.id);
        const patch = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
        const at = isoNow(ctx);
        const next = tx
          .update(crmContentPieces)
          .set({ ...patch, updatedAt: at })
          .where(eq(crmContentPieces.id, row.id))
          .returning()
          .get();
        record(tx, at, actor, next, 'crm.content_piece.updated', `Content piece "${next.sourcePath}" updated`);
        return toContentPiece(next);
      });
    },

    /** Soft delete; the path can then be used by a new piece. */
    remove(actor: Actor, companyId: string, pieceId: string): ContentPiece {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requirePiece(tx, companyId, pieceId);
        const at = isoNow(ctx);
        const next = tx.update(crmContentPieces).set({ deletedAt: at, updatedAt: at }).where(eq(crmContentPieces.id, row.id)).returning().get();
        record(tx, at, actor, next, 'crm.content_piece.deleted', `Content piece "${next.sourcePath}" deleted`);
        return toContentPiece(next);
      });
    },
  };
}
