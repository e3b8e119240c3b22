import { and, eq, inArray } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { inJsonList, prepared } from '../db/prepared.js';
import { labels, issueLabels, type LabelRow } from './schema.js';
import type { Label } from './contract.js';
import type { Actor } from '../kernel/actor.js';
import { assertRecordAccess } from '../kernel/access.js';
import { badRequest, conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';
import { newId } from '../kernel/ids.js';

const toLabel = (r: LabelRow): Label => ({ id: r.id, companyId: r.companyId, name: r.name, color: r.color, createdAt: r.createdAt, updatedAt: r.updatedAt });

function requireLabel(db: Queryable, actor: Actor, labelId: string): LabelRow {
  const row = db.select().from(labels).where(eq(labels.id, labelId)).get();
  if (!row) throw notFound('Label');
  assertRecordAccess(actor, row.companyId, 'Label');
  return row;
}

const isUniqueViolation = (err: unknown) => err instanceof Error && /UNIQUE constraint failed: labels/.test(err.message);

// Read for every issue a route answers with: one statement for a page of any length.
const labelsOfIssues = (db: Queryable) =>
  prepared(db, 'labels.ofIssues', (d) =>
    d
      .select({ issueId: issueLabels.issueId, labelId: issueLabels.labelId })
      .from(issueLabels)
      .where(inJsonList(issueLabels.issueId))
      .prepare(),
  );

/** Label ids of many issues at once (list pages). */
export function labelIdsOf(db: Queryable, issueIds: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>(issueIds.map((id) => [id, []]));
  if (issueIds.length === 0) return out;
  for (const r of labelsOfIssues(db).all({ ids: JSON.stringify(issueIds) })) out.get(r.issueId)!.push(r.labelId);
  return out;
}

/** Every id must be a label of the company (else 400); called before anything is written. */
export function assertLabels(db: Queryable, companyId: string, labelIds: string[]): void {
  if (labelIds.length === 0) return;
  const found = db.select({ id: labels.id }).from(labels).where(and(eq(labels.companyId, companyId), inArray(labels.id, labelIds))).all();
  const missing = labelIds.filter((id) => !found.some((f) => f.id === id));
  if (missing.length > 0) {
    throw badRequest('invalid_label', `body.labelIds: not labels of this company: ${missing.join(', ')}`, { problems: [{ location: 'body', path: 'body.labelIds', message: 'unknown label' }] });
  }
}

/**
 * Replaces an issue's labels inside the caller's transaction. Every id must be a label of the
 * issue's company (else 400, nothing written). Returns whether the set changed.
 */
export function setIssueLabels(tx: Tx, at: string, issue: { id: string; companyId: string }, labelIds: string[]): boolean {
  const wanted = [...new Set(labelIds)];
  assertLabels(tx, issue.companyId, wanted);
  const current = labelIdsOf(tx, [issue.id]).get(issue.id)!;
  if (current.length === wanted.length && current.every((id) => wanted.includes(id))) return false;
  tx.delete(issueLabels).where(eq(issueLabels.issueId, issue.id)).run();
  if (wanted.length > 0) tx.insert(issueLabels).values(wanted.map((labelId) => ({ companyId: issue.companyId, issueId: issue.id, labelId, createdAt: at }))).run();
  return true;
}

export function createLabelsService(ctx: CoreContext) {
  return {
    /** By name: unique in the company, so the rowid never has to break a tie. */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Label> {
      assertCompany(ctx.db, actor, companyId);
      return keyset(labels, labels.name, 'asc').pageOf(ctx.db, eq(labels.companyId, companyId), page, toLabel);
    },

    create(actor: Actor, companyId: string, input: { name: string; color: string }): Label {
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const at = isoNow(ctx);
        try {
          const row = tx.insert(labels).values({ id: newId(), companyId, name: input.name, color: input.color, createdAt: at, updatedAt: at }).returning().get();
          recordActivity(tx, at, actor, { companyId, action: 'label.created', entityType: 'label', entityId: row.id, summary: `Label "${row.name}" created` });
          return toLabel(row);
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('label_exists', `A label named "${input.name}" already exists`);
          throw err;
        }
      });
    },

    patch(actor: Actor, labelId: string, input: { name?: string | undefined; color?: string | undefined }): Label {
      return inTransaction(ctx, (tx) => {
        const row = requireLabel(tx, actor, labelId);
        const at = isoNow(ctx);
        try {
          const updated = tx
            .update(labels)
            .set({ ...(input.name !== undefined ? { name: input.name } : {}), ...(input.color !== undefined ? { color: input.color } : {}), updatedAt: at })
            .where(eq(labels.id, row.id))
            .returning()
            .get();
          recordActivity(tx, at, actor, { companyId: row.companyId, action: 'label.updated', entityType: 'label', entityId: row.id, summary: `Label "${updated.name}" updated` });
          return toLabel(updated);
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('label_exists', `A label named "${input.name}" already exists`);
          throw err;
        }
      });
    },

    /** Deletes the label and takes it off every issue. */
    remove(actor: Actor, labelId: string): void {
      inTransaction(ctx, (tx) => {
        const row = requireLabel(tx, actor, labelId);
        const at = isoNow(ctx);
        const detached = tx.delete(issueLabels).where(eq(issueLabels.labelId, row.id)).run().changes;
        tx.delete(labels).where(eq(labels.id, row.id)).run();
        recordActivity(tx, at, actor, { companyId: row.companyId, action: 'label.deleted', entityType: 'label', entityId: row.id, summary: `Label "${row.name}" deleted (was on ${detached} issues)` });
      });
    },
  };
}
