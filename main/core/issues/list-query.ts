import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { ISSUE_STATUSES, issues, type IssueRow } from './schema.js';
import { issueLabels } from '../labels/schema.js';
import { prepared } from '../db/prepared.js';
import { badRequest } from '../kernel/errors.js';
import type { Queryable } from '../context.js';
import { ISSUE_JSON } from './issue-json.js';

/** The filters of an issue list once references are resolved (the assignee is an agent id). */
export interface IssueListQuery {
  companyId: string;
  status?: IssueRow['status'][] | undefined;
  assigneeAgentId?: string | undefined;
  projectId?: string | undefined;
  parentId?: string | undefined;
  labelId?: string | undefined;
  limit: number;
  cursor?: string | undefined;
}

interface Cursor {
  r: number;
  t: string;
  i: string;
}

export const encodeCursor = (row: Pick<IssueRow, 'priorityRank' | 'lastActivityAt' | 'id'>): string =>
  Buffer.from(JSON.stringify({ r: row.priorityRank, t: row.lastActivityAt, i: row.id })).toString('base64url');

function decodeCursor(cursor: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.r === 'number' && typeof c.t === 'string' && typeof c.i === 'string') return c;
  } catch {
    // fall through
  }
  throw badRequest('invalid_cursor', 'query.cursor: not a cursor from this list');
}

/**
 * Which filters a list uses: each combination is one statement, built once per connection
 * (db/prepared.ts), since building the SQL text cost more than running it (issue 17).
 *
 * The only indexes in the list's order are keyed by status: (company, status, priority, activity)
 * and (assignee, status, priority, activity). One status is an equality, so SQLite walks such an
 * index in order and stops at the page's end. Several statuses, or none, are a merge: one walk per
 * status, each stopping at the page's length, and the at most seven short runs sorted together.
 * The company's index also holds `deleted_at`, so with no filter (or a label only) those walks
 * read the index alone, and the table is read for the rows of the page only.
 * Every index holding the activity time rewrites an issue's entry on each bump of it, which
 * checkout, release, comments and edits all do: two more indexes in the list's order without the
 * status made that four entries a bump instead of two (bench/README.md, ninth pass).
 */
function shapeOf(q: IssueListQuery) {
  return {
    status: q.status?.length === 1 ? 'one' : 'merge',
    assignee: q.assigneeAgentId !== undefined,
    project: q.projectId !== undefined,
    parent: q.parentId !== undefined,
    label: q.labelId !== undefined,
    cursor: q.cursor !== undefined,
  } as const;
}
type Shape = ReturnType<typeof shapeOf>;

const p = sql.placeholder;
const ORDER = (): SQL => sql`${issues.priorityRank}, ${issues.lastActivityAt} DESC, ${issues.id}`;
/** The merge's placeholders: `s0`…`s6`, one per status, bound to that status or to null (no rows). */
const statusSlot = (i: number) => `s${i}`;

function filters(shape: Shape): SQL[] {
  const where: SQL[] = [eq(issues.companyId, p('companyId')), isNull(issues.deletedAt)];
  if (shape.assignee) where.push(eq(issues.assigneeAgentId, p('assigneeAgentId')));
  if (shape.project) where.push(eq(issues.projectId, p('projectId')));
  if (shape.parent) where.push(eq(issues.parentId, p('parentId')));
  if (shape.label) where.push(sql`EXISTS (SELECT 1 FROM ${issueLabels} WHERE ${issueLabels.issueId} = ${issues.id} AND ${issueLabels.labelId} = ${p('labelId')})`);
  if (shape.cursor) {
    where.push(
      sql`(${issues.priorityRank} > ${p('r')} OR (${issues.priorityRank} = ${p('r')} AND (${issues.lastActivityAt} < ${p('t')} OR (${issues.lastActivityAt} = ${p('t')} AND ${issues.id} > ${p('i')}))))`,
    );
  }
  return where;
}

/**
 * What a page reads of each issue: the whole row, or (for the route) its id, its priority's rank
 * (for the next page's cursor) and the issue as JSON written by SQLite (issue-json.ts).
 */
type Form = 'rows' | 'json';
const JSON_COLUMNS = { id: issues.id, priorityRank: issues.priorityRank, json: ISSUE_JSON };

function build(db: Queryable, shape: Shape, form: Form) {
  const where = filters(shape);
  const select = () => (form === 'json' ? db.select(JSON_COLUMNS) : db.select());
  if (shape.status === 'one') {
    return select()
      .from(issues)
      .where(and(...where, eq(issues.status, p('status'))))
      .orderBy(ORDER())
      .limit(p('limit'))
      .prepare();
  }
  // Each status's first page as rowids and sort keys, then the page of the merged walks, and only
  // then the rows of that page from the table.
  const walks = ISSUE_STATUSES.map(
    (_, i) =>
      sql`SELECT "rid", "r", "t", "i" FROM (SELECT ${issues}.rowid AS "rid", ${issues.priorityRank} AS "r", ${issues.lastActivityAt} AS "t", ${issues.id} AS "i" FROM ${issues} WHERE ${and(...where, eq(issues.status, p(statusSlot(i))))} ORDER BY ${ORDER()} LIMIT ${p('limit')})`,
  );
  const page = sql`SELECT "rid" FROM (${sql.join(walks, sql` UNION ALL `)}) ORDER BY "r", "t" DESC, "i" LIMIT ${p('limit')}`;
  return select().from(issues).where(sql`${issues}.rowid IN (${page})`).orderBy(ORDER()).prepare();
}

function run<T>(db: Queryable, q: IssueListQuery, form: Form): T[] {
  const shape = shapeOf(q);
  const key = `issues.list:${form}:${Object.values(shape).join(',')}`;
  const c = q.cursor !== undefined ? decodeCursor(q.cursor) : undefined;
  const wanted = q.status?.length ? new Set(q.status) : null;
  const slots = Object.fromEntries(ISSUE_STATUSES.map((s, i) => [statusSlot(i), !wanted || wanted.has(s) ? s : null]));
  const query = prepared(db, key, (d) => build(d, shape, form)) as { all(values: Record<string, unknown>): unknown[] };
  return query.all({
    ...slots,
    companyId: q.companyId,
    status: q.status?.[0],
    assigneeAgentId: q.assigneeAgentId,
    projectId: q.projectId,
    parentId: q.parentId,
    labelId: q.labelId,
    r: c?.r,
    t: c?.t,
    i: c?.i,
    limit: q.limit + 1,
  }) as T[];
}

/** One page (plus one row, to tell whether another page follows), by priority then recent activity. */
export const issueListRows = (db: Queryable, q: IssueListQuery): IssueRow[] => run<IssueRow>(db, q, 'rows');

export interface IssueJsonRow {
  id: string;
  priorityRank: number;
  /** The issue as `toIssue` answers it, written by SQLite. */
  json: string;
}

/** `issueListRows` with each issue written as JSON: the same rows in the same order. */
export const issueListJson = (db: Queryable, q: IssueListQuery): IssueJsonRow[] => run<IssueJsonRow>(db, q, 'json');
