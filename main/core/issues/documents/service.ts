import { keyset, type KeysetPage, type KeysetQuery } from '../../db/keyset.js';
import { and, asc, eq, isNull, sql, type Placeholder } from 'drizzle-orm';
import { prepared } from '../../db/prepared.js';
import { issueDocumentRevisions, issueDocuments, type IssueDocumentRevisionRow, type IssueDocumentRow, type IssueRow } from '../schema.js';
import {
  MAX_DOCUMENT_BODY_BYTES,
  type DeletedDocument,
  type DocumentRevision,
  type DocumentSummary,
  type IssueDocument,
  type PlanDocument,
  type PutDocumentInput,
} from './contract.js';
import { requireIssue, touchIssue } from '../lookup.js';
import { supersedeForDocumentRevision } from '../interactions/supersede.js';
import { newId } from '../../kernel/ids.js';
import type { Actor } from '../../kernel/actor.js';
import { actorRef } from '../../kernel/actor.js';
import { assertBoard } from '../../kernel/access.js';
import { badRequest, conflict, notFound } from '../../kernel/errors.js';
import { recordActivity } from '../../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../../context.js';

type Format = DocumentSummary['format'];

// Measured in SQL so listing documents never loads their bodies.
const bodyBytesSql = sql<number>`length(CAST(${issueDocuments.body} AS BLOB))`;

const summaryColumns = {
  key: issueDocuments.key,
  title: issueDocuments.title,
  format: issueDocuments.format,
  revisionId: issueDocuments.currentRevisionId,
  revisionNumber: issueDocuments.revisionNumber,
  createdAt: issueDocuments.createdAt,
  updatedAt: issueDocuments.updatedAt,
  bodyBytes: bodyBytesSql,
};

const live = (issueId: string | Placeholder) => and(eq(issueDocuments.issueId, issueId), isNull(issueDocuments.deletedAt));

function toDocument(row: IssueDocumentRow): IssueDocument {
  return {
    id: row.id,
    key: row.key,
    title: row.title,
    format: row.format as Format,
    body: row.body,
    revisionId: row.currentRevisionId,
    revisionNumber: row.revisionNumber,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    bodyBytes: Buffer.byteLength(row.body, 'utf8'),
  };
}

const toRevision = (row: IssueDocumentRevisionRow): DocumentRevision => ({
  id: row.id,
  revisionNumber: row.revisionNumber,
  title: row.title,
  format: row.format as Format,
  body: row.body,
  authorType: row.authorType,
  authorId: row.authorId,
  createdAt: row.createdAt,
});

/** One page of the metadata of the issue's live documents, by key (unique among live ones). `issueId` is the issue's UUID. */
export function documentSummaries(db: Queryable, issueId: string, page: KeysetQuery): KeysetPage<DocumentSummary> {
  const order = keyset(issueDocuments, issueDocuments.key, 'asc');
  const rows = db
    .select({ summary: summaryColumns, rowid: order.rowid })
    .from(issueDocuments)
    .where(and(live(issueId), order.after(page.after)))
    .orderBy(...order.orderBy)
    .limit(page.limit + 1)
    .all();
  return order.page(rows, page.limit, (r) => r.summary.key, (r) => ({ ...r.summary, format: r.summary.format as Format }));
}

// Built once per connection (db/prepared.ts).
const documentByKey = (db: Queryable) =>
  prepared(db, 'documents.byKey', (d) => d.select().from(issueDocuments).where(and(live(sql.placeholder('issueId')), eq(issueDocuments.key, sql.placeholder('key')))).prepare());

// GET of an issue shows its documents' summaries and the plan in full: one statement for both.
const summariesWithPlanOf = (db: Queryable) =>
  prepared(db, 'documents.summariesWithPlan', (d) =>
    d
      .select({ ...summaryColumns, planBody: sql<string | null>`CASE WHEN ${issueDocuments.key} = 'plan' THEN ${issueDocuments.body} END` })
      .from(issueDocuments)
      .where(live(sql.placeholder('issueId')))
      .orderBy(asc(issueDocuments.key))
      .prepare(),
  );

/** The issue's live document summaries and its `plan` document in full (or null), read together. */
export function documentsView(db: Queryable, issueId: string): { documentSummaries: DocumentSummary[]; planDocument: PlanDocument | null } {
  let plan: PlanDocument | null = null;
  const documentSummaries = summariesWithPlanOf(db)
    .all({ issueId })
    .map(({ planBody, ...r }) => {
      const summary = { ...r, format: r.format as Format };
      if (r.key === 'plan' && planBody !== null) {
        plan = { key: 'plan', title: r.title, format: summary.format, body: planBody, revisionId: r.revisionId, revisionNumber: r.revisionNumber, updatedAt: r.updatedAt };
      }
      return summary;
    });
  return { documentSummaries, planDocument: plan };
}

export function findDocument(db: Queryable, issueId: string, key: string): IssueDocumentRow | undefined {
  return documentByKey(db).get({ issueId, key });
}

function requireDocument(db: Queryable, issueId: string, key: string): IssueDocumentRow {
  const row = findDocument(db, issueId, key);
  if (!row) throw notFound('Document');
  return row;
}

function assertBodySize(body: string): void {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_DOCUMENT_BODY_BYTES) {
    const message = `body.body: ${bytes} bytes is more than the ${MAX_DOCUMENT_BODY_BYTES} bytes (512 KiB, UTF-8) a document may hold`;
    throw badRequest('document_too_large', message, {
      maxBytes: MAX_DOCUMENT_BODY_BYTES,
      bodyBytes: bytes,
      problems: [{ location: 'body', path: 'body.body', message: `at most ${MAX_DOCUMENT_BODY_BYTES} bytes` }],
    });
  }
}

interface Content {
  title: string;
  format: Format;
  body: string;
}

export function createIssueDocumentsService(ctx: CoreContext) {
  /** Stores revision `number` of a document and makes it current; the caller has checked the base. */
  function writeRevision(tx: Tx, at: string, actor: Actor, issue: IssueRow, doc: { id: string; key: string; created: boolean }, number: number, content: Content) {
    const revisionId = newId();
    const ref = actorRef(actor);
    if (doc.created) {
      // The document row comes first: revisions reference it.
      tx.insert(issueDocuments)
        .values({ id: doc.id, companyId: issue.companyId, issueId: issue.id, key: doc.key, ...content, revisionNumber: number, currentRevisionId: revisionId, createdAt: at, updatedAt: at })
        .run();
    } else {
      tx.update(issueDocuments).set({ ...content, revisionNumber: number, currentRevisionId: revisionId, updatedAt: at }).where(eq(issueDocuments.id, doc.id)).run();
    }
    tx.insert(issueDocumentRevisions)
      .values({ id: revisionId, documentId: doc.id, revisionNumber: number, ...content, authorType: ref.actorType, authorId: ref.actorId, createdAt: at })
      .run();
    supersedeForDocumentRevision(tx, at, issue.id, doc.id, revisionId);
    touchIssue(tx, issue.id, at);
    recordActivity(tx, at, actor, {
      companyId: issue.companyId,
      action: doc.created ? 'issue.document_created' : 'issue.document_updated',
      entityType: 'issue',
      entityId: issue.id,
      summary: `Document "${doc.key}" ${doc.created ? 'created' : 'updated'} on ${issue.identifier} (revision ${number})`,
      details: { documentId: doc.id, key: doc.key, revisionId, revisionNumber: number },
    });
    return toDocument(requireDocument(tx, issue.id, doc.key));
  }

  return {
    list(actor: Actor, issueRef: string, page: KeysetQuery): KeysetPage<DocumentSummary> {
      return documentSummaries(ctx.db, requireIssue(ctx.db, actor, issueRef).id, page);
    },

    get(actor: Actor, issueRef: string, key: string): IssueDocument {
      return toDocument(requireDocument(ctx.db, requireIssue(ctx.db, actor, issueRef).id, key));
    },

    /** Newest first. */
    revisions(actor: Actor, issueRef: string, key: string, page: KeysetQuery): KeysetPage<DocumentRevision> {
      const doc = requireDocument(ctx.db, requireIssue(ctx.db, actor, issueRef).id, key);
      return keyset(issueDocumentRevisions, issueDocumentRevisions.revisionNumber, 'desc').pageOf(ctx.db, eq(issueDocumentRevisions.documentId, doc.id), page, toRevision);
    },

    /**
     * Creates (no base) or updates (base = current revision) a document. The check and the write
     * share one IMMEDIATE transaction, so of concurrent writers with the same base exactly one wins.
     * An update identical to the current content still needs the current base, but then writes
     * nothing: no revision, no activity, and pending confirmations of that revision stay valid.
     */
    put(actor: Actor, issueRef: string, key: string, input: PutDocumentInput): { document: IssueDocument; created: boolean } {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssue(tx, actor, issueRef);
        assertBodySize(input.body);
        const content: Content = { title: input.title, format: input.format, body: input.body };
        const current = findDocument(tx, issue.id, key);
        const base = input.baseRevisionId ?? null;
        const at = isoNow(ctx);
        if (base === null) {
          if (current) {
            throw conflict('document_exists', `Document "${key}" exists; send its current revisionId as baseRevisionId to update it`, {
              currentRevisionId: current.currentRevisionId,
              currentRevisionNumber: current.revisionNumber,
            });
          }
          return { document: writeRevision(tx, at, actor, issue, { id: newId(), key, created: true }, 1, content), created: true };
        }
        // A base for a document that does not exist (never did, or was deleted) is stale too.
        if (!current || current.currentRevisionId !== base) {
          throw conflict('stale_revision', `baseRevisionId is not the current revision of document "${key}"; reload it and apply your change again`, {
            currentRevisionId: current?.currentRevisionId ?? null,
            currentRevisionNumber: current?.revisionNumber ?? null,
          });
        }
        if (current.title === content.title && current.format === content.format && current.body === content.body) {
          return { document: toDocument(current), created: false };
        }
        return { document: writeRevision(tx, at, actor, issue, { id: current.id, key, created: false }, current.revisionNumber + 1, content), created: false };
      });
    },

    /** Soft delete (board only): the key becomes free; history stays in the database. */
    remove(actor: Actor, issueRef: string, key: string): DeletedDocument {
      assertBoard(actor, 'delete issue documents');
      return inTransaction(ctx, (tx) => {
        const issue = requireIssue(tx, actor, issueRef);
        const doc = requireDocument(tx, issue.id, key);
        const at = isoNow(ctx);
        tx.update(issueDocuments).set({ deletedAt: at, updatedAt: at }).where(eq(issueDocuments.id, doc.id)).run();
        supersedeForDocumentRevision(tx, at, issue.id, doc.id, null);
        touchIssue(tx, issue.id, at);
        recordActivity(tx, at, actor, {
          companyId: issue.companyId,
          action: 'issue.document_deleted',
          entityType: 'issue',
          entityId: issue.id,
          summary: `Document "${key}" deleted from ${issue.identifier}`,
          details: { documentId: doc.id, key, revisionId: doc.currentRevisionId, revisionNumber: doc.revisionNumber },
        });
        return { ...toDocument(doc), updatedAt: at, deletedAt: at };
      });
    },
  };
}

export type IssueDocumentsService = ReturnType<typeof createIssueDocumentsService>;
