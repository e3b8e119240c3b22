import type { Actor } from '../kernel/actor.js';
import type { CrmActivityRow, CrmChannel } from './schema.js';

/**
 * One outbound message handed to the dispatcher. POST /crm/send builds it from the request body;
 * the sequence scheduler (crm/sequences) builds it from a due step.
 */
export interface DispatchRequest {
  companyId: string;
  /** `system` for the scheduler; the dedup key then uses `system` as the actor part. */
  actor: Actor | 'system';
  channel: CrmChannel;
  outboxId: string;
  /** Recipient: an e-mail address, E.164 phone number or platform handle, by channel. */
  to: string;
  /** What is sent (`message`, `invite`, `direct_message`, …); default: the channel's default kind. */
  kind?: string | undefined;
  payload: Record<string, unknown>;
  contentPieceId?: string | null | undefined;
  /** Matched by approval-rule `tags` predicates, together with the content piece's tags. */
  tags?: string[] | undefined;
  /** Must equal the key the dispatcher computes (dedup-key.ts) when given; 400 otherwise. */
  clientDedupKey?: string | undefined;
  /**
   * Internal callers only (never from HTTP): a key of the caller's own, e.g. one per sequence
   * enrollment step, so a double tick or a crash never sends twice. Replaces the computed key.
   */
  dedupKey?: string | undefined;
  /** Who asked: `api` (default) or e.g. `sequence`; `originRef` is the caller's id (an enrollment). */
  origin?: string | undefined;
  originRef?: string | null | undefined;
}

export type DispatchStatus = CrmActivityRow['status'];

export interface DispatchOutcome {
  /** The activity row after this call: its `status` is the outcome (spec 3.5). */
  activity: CrmActivityRow;
  /** True when the dedup key matched a sent, dry-run-sent, pending or in-flight activity: nothing was done. */
  replayed: boolean;
}
