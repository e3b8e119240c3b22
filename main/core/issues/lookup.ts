import { eq } from 'drizzle-orm';
import { issues, type IssueRow } from './schema.js';
import type { Actor } from '../kernel/actor.js';
import type { Queryable } from '../context.js';
import { assertRecordAccess } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const IDENTIFIER = /^[A-Z][A-Z0-9]{0,9}-[1-9][0-9]{0,9}$/;

/** An issue by UUID or readable identifier (`ACME-42`), visible to the actor; else 404. */
export function requireIssue(db: Queryable, actor: Actor, idOrIdentifier: string): IssueRow {
  const key = idOrIdentifier.trim();
  let row: IssueRow | undefined;
  if (UUID.test(key)) row = db.select().from(issues).where(eq(issues.id, key.toLowerCase())).get();
  else if (IDENTIFIER.test(key.toUpperCase())) row = db.select().from(issues).where(eq(issues.identifier, key.toUpperCase())).get();
  if (!row) throw notFound('Issue');
  assertRecordAccess(actor, row.companyId, 'Issue');
  return row;
}

/** Touches the issue's activity time so lists sorted by recent activity reflect comments etc. */
export function touchIssue(db: Queryable, issueId: string, at: string): void {
  db.update(issues).set({ lastActivityAt: at }).where(eq(issues.id, issueId)).run();
}

export const isUuid = (s: string): boolean => UUID.test(s);
