import { eq, sql } from 'drizzle-orm';
import { issues, ISSUE_PRIORITIES, type IssuePriority, type IssueRow, type IssueStatus } from './schema.js';
import { companies } from '../companies/schema.js';
import { requestWake } from './wake.js';
import { openBlockers } from './blockers.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import { recordActivity } from '../activity/service.js';
import type { Tx } from '../context.js';

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

/**
 * Inserts one issue inside the caller's IMMEDIATE transaction: the next number from the company's
 * counter (bumped in the same transaction, so numbers never repeat), a wake for the assignee unless
 * it assigned itself, and the activity record. References are validated by the caller.
 */
export function insertIssue(tx: Tx, at: string, actor: Actor, input: NewIssue, details?: Record<string, unknown>): IssueRow {
  const { issueCounter: number, issuePrefix } = tx
    .update(companies)
    .set({ issueCounter: sql`${companies.issueCounter} + 1` })
    .where(eq(companies.id, input.companyId))
    .returning({ issueCounter: companies.issueCounter, issuePrefix: companies.issuePrefix })
    .get()!;
  const ref = actorRef(actor);
  const row = tx
    .insert(issues)
    .values({
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
    })
    .returning()
    .get();
  wakeAssignee(tx, at, actor, row);
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
 * blockers (the last blocker's completion wakes it then, see blockers.ts).
 */
export function wakeAssignee(tx: Tx, at: string, actor: Actor, row: IssueRow): void {
  if (row.assigneeAgentId && !(actor.kind === 'agent' && actor.agentId === row.assigneeAgentId) && openBlockers(tx, row.id).length === 0) {
    requestWake(tx, at, { companyId: row.companyId, agentId: row.assigneeAgentId, reason: 'assignment', issueId: row.id });
  }
}
