import { and, eq, inArray, isNull, max, ne } from 'drizzle-orm';
import { heartbeatRuns } from './schema.js';
import { agents, type AgentRow } from '../agents/schema.js';
import { companies } from '../companies/schema.js';
import { issues, issueMentions, wakeRequests } from '../issues/schema.js';
import { budgetStop } from '../costs/budget-check.js';
import type { Queryable } from '../context.js';

/**
 * Why an agent may not start a heartbeat now, or null. Paused, terminated and draft agents, agents
 * of a paused or archived company, and agents or companies stopped by budget never start.
 */
export function whyNotRunnable(db: Queryable, agent: AgentRow, now: Date): string | null {
  if (agent.status === 'draft') return 'the agent is a draft awaiting its hire approval';
  if (agent.status === 'terminated') return 'the agent was terminated';
  if (agent.status === 'paused') return agent.pauseReason === 'budget' ? 'the agent is paused by its budget' : 'the agent is paused';
  const company = db.select({ status: companies.status }).from(companies).where(eq(companies.id, agent.companyId)).get();
  if (company?.status === 'paused') return 'the company is paused';
  if (company?.status === 'archived') return 'the company is archived';
  const stop = budgetStop(db, agent.companyId, agent.id, now);
  return stop ? stop.reason : null;
}

/**
 * Whether a scheduled heartbeat has anything to do: an open issue assigned to the agent, an unread
 * mention, or a pending wake other than the schedule itself (an accepted interaction, an approval
 * decision). Without any, the scheduled heartbeat is skipped and no process starts.
 */
export function hasWork(db: Queryable, agentId: string): boolean {
  const assigned = db
    .select({ id: issues.id })
    .from(issues)
    .where(and(eq(issues.assigneeAgentId, agentId), inArray(issues.status, ['todo', 'in_progress'])))
    .limit(1)
    .get();
  if (assigned) return true;
  const mention = db.select({ id: issueMentions.id }).from(issueMentions).where(and(eq(issueMentions.agentId, agentId), isNull(issueMentions.readAt))).limit(1).get();
  if (mention) return true;
  const wake = db
    .select({ id: wakeRequests.id })
    .from(wakeRequests)
    .where(and(eq(wakeRequests.agentId, agentId), eq(wakeRequests.status, 'pending'), ne(wakeRequests.reason, 'schedule')))
    .limit(1)
    .get();
  return wake !== undefined;
}

export const agentById = (db: Queryable, agentId: string): AgentRow | undefined => db.select().from(agents).where(eq(agents.id, agentId)).get();

/**
 * Until when the agent's runs wait because its CLI hit a rate or usage limit (the latest reset
 * time a run recorded, if still ahead), or null. Wakes stay pending meanwhile; none is skipped.
 */
export function rateLimitedUntil(db: Queryable, agentId: string, now: Date): string | null {
  const row = db.select({ until: max(heartbeatRuns.rateLimitResetAt) }).from(heartbeatRuns).where(eq(heartbeatRuns.agentId, agentId)).get();
  const until = row?.until ?? null;
  return until && Date.parse(until) > now.getTime() ? until : null;
}
