import { wakeRequests, type WakeReason } from './schema.js';
import { newId } from '../kernel/ids.js';
import { wakeOnCommit, type Queryable } from '../context.js';

export interface WakeInput {
  companyId: string;
  agentId: string;
  reason: WakeReason;
  issueId?: string | null;
  commentId?: string | null;
  interactionId?: string | null;
  approvalId?: string | null;
}

/**
 * Stores a request to wake an agent, inside the caller's transaction. The heartbeat engine consumes
 * pending requests (coalescing those that arrive during a run); nothing is started from here, but
 * the engine is poked as soon as the transaction commits.
 */
export function requestWake(tx: Queryable, at: string, input: WakeInput): string {
  const id = newId();
  tx.insert(wakeRequests)
    .values({
      id,
      companyId: input.companyId,
      agentId: input.agentId,
      reason: input.reason,
      issueId: input.issueId ?? null,
      commentId: input.commentId ?? null,
      interactionId: input.interactionId ?? null,
      approvalId: input.approvalId ?? null,
      status: 'pending',
      createdAt: at,
    })
    .run();
  wakeOnCommit(tx);
  return id;
}
