import { eq, sql } from 'drizzle-orm';
import { issues, ISSUE_PRIORITIES, type IssueRow } from '../schema.js';
import { companies } from '../../companies/schema.js';
import type { AgentRow } from '../../agents/schema.js';
import type { SuggestedTask } from './contract.js';
import { requestWake } from '../wake.js';
import { newId } from '../../ids.js';
import type { Actor } from '../../http/actor.js';
import { actorRef } from '../../http/actor.js';
import { conflict } from '../../errors.js';
import { recordActivity } from '../../activity/service.js';
import type { Tx } from '../../context.js';

/**
 * Creates accepted suggested tasks as children of `parent`, inside the caller's transaction, the way
 * POST /api/companies/{id}/issues would: numbers from the company counter (bumped in the same
 * IMMEDIATE transaction, so they never repeat), a wake for each assignee, one activity record each.
 * Children start in `todo` (the board just chose them) and inherit the parent's project and goal.
 */
export function insertChildIssues(
  tx: Tx,
  at: string,
  actor: Actor,
  parent: IssueRow,
  tasks: SuggestedTask[],
  assignees: Map<string, AgentRow>,
  interactionId: string,
): string[] {
  const company = tx.select({ status: companies.status }).from(companies).where(eq(companies.id, parent.companyId)).get();
  if (company?.status === 'archived') throw conflict('company_archived', 'Unarchive the company before adding issues');
  const ref = actorRef(actor);
  return tasks.map((task) => {
    const { issueCounter: number, issuePrefix } = tx
      .update(companies)
      .set({ issueCounter: sql`${companies.issueCounter} + 1` })
      .where(eq(companies.id, parent.companyId))
      .returning({ issueCounter: companies.issueCounter, issuePrefix: companies.issuePrefix })
      .get()!;
    const priority = task.priority ?? 'medium';
    const assignee = assignees.get(task.clientKey) ?? null;
    const row = tx
      .insert(issues)
      .values({
        id: newId(),
        companyId: parent.companyId,
        number,
        identifier: `${issuePrefix}-${number}`,
        title: task.title,
        description: task.description ?? '',
        status: 'todo',
        priority,
        priorityRank: ISSUE_PRIORITIES.indexOf(priority),
        assigneeAgentId: assignee?.id ?? null,
        parentId: parent.id,
        projectId: parent.projectId,
        goalId: parent.goalId,
        createdByType: ref.actorType,
        createdById: ref.actorId,
        createdAt: at,
        updatedAt: at,
        lastActivityAt: at,
      })
      .returning()
      .get();
    if (assignee && !(actor.kind === 'agent' && actor.agentId === assignee.id)) {
      requestWake(tx, at, { companyId: row.companyId, agentId: assignee.id, reason: 'assignment', issueId: row.id });
    }
    recordActivity(tx, at, actor, {
      companyId: row.companyId,
      action: 'issue.created',
      entityType: 'issue',
      entityId: row.id,
      summary: `${row.identifier} created: ${row.title}`,
      details: { parentId: parent.id, interactionId, clientKey: task.clientKey },
    });
    return row.id;
  });
}
