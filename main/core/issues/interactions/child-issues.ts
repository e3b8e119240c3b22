import { eq } from 'drizzle-orm';
import type { IssueRow } from '../schema.js';
import { companies } from '../../companies/schema.js';
import type { AgentRow } from '../../agents/schema.js';
import type { SuggestedTask } from './contract.js';
import { insertIssue } from '../insert.js';
import type { Actor } from '../../kernel/actor.js';
import { conflict } from '../../kernel/errors.js';
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
  return tasks.map(
    (task) =>
      insertIssue(
        tx,
        at,
        actor,
        {
          companyId: parent.companyId,
          title: task.title,
          description: task.description,
          status: 'todo',
          priority: task.priority ?? 'medium',
          assigneeAgentId: assignees.get(task.clientKey)?.id ?? null,
          parentId: parent.id,
          projectId: parent.projectId,
          goalId: parent.goalId,
        },
        { parentId: parent.id, interactionId, clientKey: task.clientKey },
      ).id,
  );
}
