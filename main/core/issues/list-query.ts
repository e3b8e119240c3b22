import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { issues, type IssueRow } from './schema.js';
import { issueLabels } from '../labels/schema.js';
import { inJsonList, prepared } from '../db/prepared.js';
import { badRequest } from '../kernel/errors.js';
import type { Queryable } from '../context.js';

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

export const encodeCursor = (row: IssueRow): string => Buffer.from(JSON.stringify({ r: row.priorityRank, t: row.lastActivityAt, i: row.id })).toString('base64url');

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
 * (db/prepared.ts), since building the SQL text cost more than running it (issue 17). One status
 * is an equality, so SQLite walks the (…, status, priority, activity) index in order and stops at
 * the page's end; several are bound as one JSON array.
 */
function shapeOf(q: IssueListQuery) {
  return {
    status: !q.status?.length ? 'any' : q.status.length === 1 ? 'one' : 'many',
    assignee: q.assigneeAgentId !== undefined,
    project: q.projectId !== undefined,
    parent: q.parentId !== undefined,
    label: q.labelId !== undefined,
    cursor: q.cursor !== undefined,
  } as const;
}
type Shape = ReturnType<typeof shapeOf>;

function build(db: Queryable, shape: Shape) {
  const p = sql.placeholder;
  const where: SQL[] = [eq(issues.companyId, p('companyId')), isNull(issues.deletedAt)];
  if (shape.status === 'one') where.push(eq(issues.status, p('status')));
  if (shape.status === 'many') where.push(inJsonList(issues.status, 'statuses'));
  if (shape.assignee) where.push(eq(issues.assigneeAgentId, p('assigneeAgentId')));
  if (shape.project) where.push(eq(issues.projectId, p('projectId')));
  if (shape.parent) where.push(eq(issues.parentId, p('parentId')));
  if (shape.label) where.push(sql`EXISTS (SELECT 1 FROM ${issueLabels} WHERE ${issueLabels.issueId} = ${issues.id} AND ${issueLabels.labelId} = ${p('labelId')})`);
  if (shape.cursor) {
    where.push(
      sql`(${issues.priorityRank} > ${p('r')} OR (${issues.priorityRank} = ${p('r')} AND (${issues.lastActivityAt} < ${p('t')} OR (${issues.lastActivityAt} = ${p('t')} AND ${issues.id} > ${p('i')}))))`,
    );
  }
  return db
    .select()
    .from(issues)
    .where(and(...where))
    .orderBy(issues.priorityRank, sql`${issues.lastActivityAt} DESC`, issues.id)
    .limit(p('limit'))
    .prepare();
}

/** One page (plus one row, to tell whether another page follows), by priority then recent activity. */
export function issueListRows(db: Queryable, q: IssueListQuery): IssueRow[] {
  const shape = shapeOf(q);
  const key = `issues.list:${Object.values(shape).join(',')}`;
  const c = q.cursor !== undefined ? decodeCursor(q.cursor) : undefined;
  return prepared(db, key, (d) => build(d, shape)).all({
    companyId: q.companyId,
    status: q.status?.[0],
    statuses: JSON.stringify(q.status ?? []),
    assigneeAgentId: q.assigneeAgentId,
    projectId: q.projectId,
    parentId: q.parentId,
    labelId: q.labelId,
    r: c?.r,
    t: c?.t,
    i: c?.i,
    limit: q.limit + 1,
  });
}
