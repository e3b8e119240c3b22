import { eq, sql } from 'drizzle-orm';
import { issues, ISSUE_PRIORITIES, type IssuePriority, type IssueRow, type IssueStatus } from './schema.js';
import { companies } from '../companies/schema.js';
import { requestWake } from './wake.js';
import { openBlockers } from './blockers.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import { recordActivity } from '../activity/service.js';
import type { Queryable, Tx } from '../context.js';
import { prepared } from '../db/prepared.js';

export const priorityRank = (p: IssuePriority): number => ISSUE_PRIORITIES.indexOf(p);

export interface NewIssue {
  companyId: string;
  title: string;
  description?: string | undefined;
  status: IssueStatus;
  priority: IssuePriority;
  /** Already resolved and checked by the caller. */
  assigneeAgentId: string | null;
  parentId?: string | null | undefined;
  projectId?: string | null | undefined;
  goalId?: string | null | undefined;
  billingCode?: string | null | undefined;
}

// Every new issue runs both: built once per connection (db/prepared.ts), every value a placeholder.
const p = sql.placeholder;
const nextIssueNumber = (db: Queryable) =>
  prepared(db, 'issues.nextNumber', (d) =>
    d
      .update(companies)
      .set({ issueCounter: sql`${companies.issueCounter} + 1` })
      .where(eq(companies.id, p('companyId')))
      .returning({ issueCounter: companies.issueCounter, issuePrefix: companies.issuePrefix })
      .prepare(),
  );
// Every column is bound, so no column default is frozen into the statement; `satisfies` below
// keeps the values in step with this list.
const COLUMNS = [
  'id', 'companyId', 'number', 'identifier', 'title', 'description', 'status', 'priority', 'priorityRank', 'assigneeAgentId', 'parentId', 'projectId',
  'goalId', 'billingCode', 'completedAt', 'cancelledAt', 'createdByType', 'createdById', 'createdAt', 'updatedAt', 'lastActivityAt',
] as const;
const insertIssueRow = (db: Queryable) =>
  prepared(db, 'issues.insert', (d) =>
    d
      .insert(issues)
      .values(Object.fromEntries(COLUMNS.map((c) => [c, p(c)])) as unknown as typeof issues.$inferInsert)
      .returning()
      .prepare(),
  );

/**
 * Inserts one issue inside the caller's IMMEDIATE transaction: the next number from the company's
 * counter (bumped in the same transaction, so numbers never repeat), a wake for the assignee unless
 * it assigned itself, and the activity record. References are validated by the caller.
 */
export function insertIssue(tx: Tx, at: string, actor: Actor, input: NewIssue, details?: Record<string, unknown>): IssueRow {
  const { issueCounter: number, issuePrefix } = nextIssueNumber(tx).get({ companyId: input.companyId })!;
  const ref = actorRef(actor);
  const values = {
    id: newId(),
    companyId: input.companyId,
    number,
    identifier: `${issuePrefix}-${number}`,
    title: input.title,
    description: input.description ?? '',
    status: input.status,
    priority: input.priority,
    priorityRank: priorityRank(input.priority),
    assigneeAgentId: input.assigneeAgentId,
    parentId: input.parentId ?? null,
    projectId: input.projectId ?? null,
    goalId: input.goalId ?? null,
    billingCode: input.billingCode ?? null,
    completedAt: input.status === 'done' ? at : null,
    cancelledAt: input.status === 'cancelled' ? at : null,
    createdByType: ref.actorType,
    createdById: ref.actorId,
    createdAt: at,
    updatedAt: at,
    lastActivityAt: at,
  } satisfies Record<(typeof COLUMNS)[number], unknown>;
  const row = insertIssueRow(tx).get(values)!;
  wakeAssignee(tx, at, actor, row, true);
  recordActivity(tx, at, actor, {
    companyId: row.companyId,
    action: 'issue.created',
    entityType: 'issue',
    entityId: row.id,
    summary: `${row.identifier} created: ${row.title}`,
    ...(details ? { details } : {}),
  });
  return row;
}

/**
 * Wakes the issue's assignee, unless the assignee is the one acting or the issue waits for open
 * blockers (the last blocker's completion wakes it then, see blockers.ts). An issue inserted in
 * this transaction (`isNew`) has no blockers yet.
 */
export function wakeAssignee(tx: Tx, at: string, actor: Actor, row: IssueRow, isNew = false): void {
  if (row.assigneeAgentId && !(actor.kind === 'agent' && actor.agentId === row.assigneeAgentId) && (isNew || openBlockers(tx, row.id).length === 0)) {
    requestWake(tx, at, { companyId: row.companyId, agentId: row.assigneeAgentId, reason: 'assignment', issueId: row.id });
  }
}
