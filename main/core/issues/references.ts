import { and, eq, sql } from 'drizzle-orm';
import { prepared } from '../db/prepared.js';
import { agents, type AgentRow } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import { goals } from '../goals/schema.js';
import { issues } from './schema.js';
import { badRequest } from '../kernel/errors.js';
import type { Queryable } from '../context.js';
import { isUuid } from './lookup.js';

const problem = (field: string, code: string, message: string) =>
  badRequest(code, `body.${field}: ${message}`, { problems: [{ location: 'body', path: `body.${field}`, message }] });

// Read by every assignment and assignee filter: built once per connection (db/prepared.ts).
const agentById = (db: Queryable) =>
  prepared(db, 'references.agentById', (d) => d.select().from(agents).where(and(eq(agents.companyId, sql.placeholder('companyId')), eq(agents.id, sql.placeholder('ref')))).prepare());
const agentByUrlKey = (db: Queryable) =>
  prepared(db, 'references.agentByUrlKey', (d) => d.select().from(agents).where(and(eq(agents.companyId, sql.placeholder('companyId')), eq(agents.urlKey, sql.placeholder('ref')))).prepare());

/** An assignee by UUID or shortname, living and hired, in the same company. */
export function resolveAssignee(db: Queryable, companyId: string, ref: string): AgentRow {
  const agent = (isUuid(ref) ? agentById(db) : agentByUrlKey(db)).get({ companyId, ref: ref.toLowerCase() });
  if (!agent) throw problem('assigneeAgentId', 'invalid_assignee', 'must be an agent id or shortname of the same company');
  if (agent.status === 'terminated' || agent.status === 'draft') {
    throw problem('assigneeAgentId', 'invalid_assignee', `cannot assign to a ${agent.status} agent`);
  }
  return agent;
}

export function assertProject(db: Queryable, companyId: string, projectId: string): void {
  const row = db.select({ companyId: projects.companyId }).from(projects).where(eq(projects.id, projectId)).get();
  if (row?.companyId !== companyId) throw problem('projectId', 'invalid_project', 'must be a project of the same company');
}

export function assertGoal(db: Queryable, companyId: string, goalId: string): void {
  const row = db.select({ companyId: goals.companyId }).from(goals).where(eq(goals.id, goalId)).get();
  if (row?.companyId !== companyId) throw problem('goalId', 'invalid_goal', 'must be a goal of the same company');
}

/** The parent must be in the same company, and the chain above it must never reach `issueId`. */
export function assertParent(db: Queryable, companyId: string, issueId: string | null, parentId: string): void {
  if (parentId === issueId) throw problem('parentId', 'parent_cycle', 'an issue cannot be its own parent');
  let current: string | null = parentId;
  const seen = new Set<string>();
  let first = true;
  while (current && !seen.has(current)) {
    seen.add(current);
    const row = db.select({ companyId: issues.companyId, parentId: issues.parentId }).from(issues).where(eq(issues.id, current)).get();
    if (!row || row.companyId !== companyId) {
      if (first) throw problem('parentId', 'invalid_parent', 'must be an issue of the same company');
      return;
    }
    if (row.parentId === issueId && issueId !== null) throw problem('parentId', 'parent_cycle', 'this would make the issue its own ancestor');
    first = false;
    current = row.parentId;
  }
}
