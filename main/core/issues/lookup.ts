import { eq, sql } from 'drizzle-orm';
import { prepared } from '../db/prepared.js';
import { issues, type IssueRow } from './schema.js';
import type { Actor } from '../kernel/actor.js';
import type { Queryable } from '../context.js';
import { assertRecordAccess } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const IDENTIFIER = /^[A-Z][A-Z0-9]{0,9}-[1-9][0-9]{0,9}$/;

// Every issue route starts here: built once per connection (db/prepared.ts).
const byId = (db: Queryable) => prepared(db, 'issues.byId', (d) => d.select().from(issues).where(eq(issues.id, sql.placeholder('id'))).prepare());
const byIdentifier = (db: Queryable) =>
  prepared(db, 'issues.byIdentifier', (d) => d.select().from(issues).where(eq(issues.identifier, sql.placeholder('identifier'))).prepare());

/** An issue row by UUID, deleted or not; no access check (callers hold one already). */
export const issueRowById = (db: Queryable, id: string): IssueRow | undefined => byId(db).get({ id });

/** An issue by UUID or readable identifier (`ACME-42`), visible to the actor; else 404. */
export function requireIssue(db: Queryable, actor: Actor, idOrIdentifier: string): IssueRow {
  return visibleIssue(actor, idOrIdentifier, (id) => byId(db).get({ id }), (identifier) => byIdentifier(db).get({ identifier }));
}

/**
 * What checkout and release read of an issue before their one UPDATE, which answers the whole row:
 * the rules and the activity entry need these columns only, and V8 building the other twenty
 * values was most of the cost of the read (issue 17).
 */
export type IssueLock = Pick<IssueRow, 'id' | 'companyId' | 'identifier' | 'status' | 'checkoutAgentId' | 'checkoutRunId' | 'deletedAt'>;
const LOCK = {
  id: issues.id,
  companyId: issues.companyId,
  identifier: issues.identifier,
  status: issues.status,
  checkoutAgentId: issues.checkoutAgentId,
  checkoutRunId: issues.checkoutRunId,
  deletedAt: issues.deletedAt,
};
const lockById = (db: Queryable) => prepared(db, 'issues.lockById', (d) => d.select(LOCK).from(issues).where(eq(issues.id, sql.placeholder('id'))).prepare());
const lockByIdentifier = (db: Queryable) =>
  prepared(db, 'issues.lockByIdentifier', (d) => d.select(LOCK).from(issues).where(eq(issues.identifier, sql.placeholder('identifier'))).prepare());

/** `requireIssue` for checkout and release: the same lookup, access check and 404, fewer columns. */
export function requireIssueLock(db: Queryable, actor: Actor, idOrIdentifier: string): IssueLock {
  return visibleIssue(actor, idOrIdentifier, (id) => lockById(db).get({ id }), (identifier) => lockByIdentifier(db).get({ identifier }));
}

/** The row one of two lookups finds for a UUID or an identifier, visible to the actor; else 404. */
export function visibleIssue<T extends { companyId: string; deletedAt: string | null }>(
  actor: Actor,
  idOrIdentifier: string,
  byUuid: (id: string) => T | undefined,
  byReadable: (identifier: string) => T | undefined,
): T {
  const key = idOrIdentifier.trim();
  let row: T | undefined;
  if (UUID.test(key)) row = byUuid(key.toLowerCase());
  else if (IDENTIFIER.test(key.toUpperCase())) row = byReadable(key.toUpperCase());
  if (!row || row.deletedAt) throw notFound('Issue');
  assertRecordAccess(actor, row.companyId, 'Issue');
  return row;
}

/** Touches the issue's activity time so lists sorted by recent activity reflect comments etc. */
export function touchIssue(db: Queryable, issueId: string, at: string): void {
  db.update(issues).set({ lastActivityAt: at }).where(eq(issues.id, issueId)).run();
}

export const isUuid = (s: string): boolean => UUID.test(s);
