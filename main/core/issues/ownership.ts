import { eq } from 'drizzle-orm';
import type { IssueRow } from './schema.js';
import { agents } from '../agents/schema.js';
import type { Actor } from '../kernel/actor.js';
import { conflict } from '../kernel/errors.js';
import type { Tx } from '../context.js';

/**
 * A checked-out issue belongs to the agent holding the checkout: only it and the board may change
 * its assignee or status. Without this another agent could PATCH `assigneeAgentId` and take the
 * issue from under a live run (issue #14.6). A lock left by a run that has ended still counts: the
 * holder adopts it on its next checkout, or the board reassigns or releases it.
 */
export function assertMayTakeOver(tx: Tx, actor: Actor, issue: IssueRow): void {
  if (actor.kind !== 'agent' || issue.checkoutAgentId === null || issue.checkoutAgentId === actor.agentId) return;
  const owner = tx.select({ name: agents.name }).from(agents).where(eq(agents.id, issue.checkoutAgentId)).get();
  throw conflict(
    'checked_out_by_another',
    `${issue.identifier} is checked out by ${owner?.name ?? 'another agent'}; only that agent or the board can change its assignee or status. Do not retry: pick other work.`,
    { ownerAgentId: issue.checkoutAgentId, ownerAgentName: owner?.name ?? null, ownerRunId: issue.checkoutRunId, retry: false },
  );
}
