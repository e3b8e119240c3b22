import { and, eq } from 'drizzle-orm';
import { recordActivity } from '../activity/service.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import type { Queryable } from '../context.js';
import { newId } from '../kernel/ids.js';
import type { Contact } from './contact.js';
import type { ChannelAdapter } from './channels/types.js';
import { crmActivities, type CrmActivityRow, type CrmActivityStatus, type CrmOutboxRow } from './schema.js';

/** A validated outbound message, ready for the dispatcher's steps. */
export interface PreparedSend {
  companyId: string;
  actor: Actor | 'system';
  outbox: CrmOutboxRow;
  adapter: ChannelAdapter;
  contact: Contact;
  kind: string;
  payload: Record<string, unknown>;
  tags: string[];
  niche: string | null;
  contentPieceId: string | null;
  dedupKey: string;
  origin: string;
  originRef: string | null;
}

export const actorPartOf = (actor: Actor | 'system'): string => (actor === 'system' ? 'system' : actor.kind === 'board' ? 'board' : actor.agentId);

export function findByDedupKey(db: Queryable, companyId: string, dedupKey: string): CrmActivityRow | undefined {
  return db
    .select()
    .from(crmActivities)
    .where(and(eq(crmActivities.companyId, companyId), eq(crmActivities.dedupKey, dedupKey)))
    .get();
}

export function loadActivity(db: Queryable, activityId: string): CrmActivityRow | undefined {
  return db.select().from(crmActivities).where(eq(crmActivities.id, activityId)).get();
}

const STATUS_WORDS: Record<CrmActivityStatus, string> = {
  draft_pending_approval: 'waits for approval',
  sent: 'sent',
  sent_dryrun: 'sent as a dry run',
  blocked_by_allowlist: 'blocked: recipient not on the allowlist',
  blocked_by_quota: 'blocked: daily quota reached',
  failed: 'failed',
  sending: 'is being sent',
  rejected: 'rejected',
};

/** Queues the company event (through the activity log) for a status change of one CRM activity. */
export function announce(
  tx: Queryable,
  at: string,
  actor: Actor | 'system',
  row: Pick<CrmActivityRow, 'id' | 'companyId' | 'status' | 'channel' | 'outboxId' | 'kind'>,
  action = `crm.activity.${row.status}`,
): void {
  recordActivity(tx, at, actor, {
    companyId: row.companyId,
    action,
    entityType: 'crm_activity',
    entityId: row.id,
    summary: `CRM ${row.kind} on ${row.channel} ${STATUS_WORDS[row.status]}`,
    details: { status: row.status, channel: row.channel, outboxId: row.outboxId },
  });
}

type Outcome = Partial<Omit<CrmActivityRow, 'id' | 'companyId' | 'dedupKey' | 'createdAt'>> & { status: CrmActivityStatus };

/**
 * Writes the outcome of one dispatcher step: a new activity row for a first attempt, or the same
 * row updated for a retry of a blocked or failed one (the dedup key is unique per company).
 */
export function writeOutcome(tx: Queryable, at: string, p: PreparedSend, existing: CrmActivityRow | undefined, outcome: Outcome): CrmActivityRow {
  const base = {
    outboxId: p.outbox.id,
    channel: p.outbox.channel,
    contact: p.contact.value,
    kind: p.kind,
    payload: p.payload,
    tags: p.tags,
    niche: p.niche,
    contentPieceId: p.contentPieceId,
    origin: p.origin,
    originRef: p.originRef,
    updatedAt: at,
  };
  let row: CrmActivityRow;
  if (existing) {
    row = tx
      .update(crmActivities)
      .set({ ...base, errorCode: null, errorMessage: null, ...outcome })
      .where(eq(crmActivities.id, existing.id))
      .returning()
      .get();
  } else {
    const ref = p.actor === 'system' ? { actorType: 'system' as const, actorId: null } : actorRef(p.actor);
    row = tx
      .insert(crmActivities)
      .values({ id: newId(), companyId: p.companyId, dedupKey: p.dedupKey, ...ref, ...base, createdAt: at, ...outcome })
      .returning()
      .get();
  }
  announce(tx, at, p.actor, row);
  return row;
}

/** Updates a row already known by id (the send phase and recovery) and announces it. */
export function updateActivity(tx: Queryable, at: string, actor: Actor | 'system', id: string, outcome: Outcome, action?: string): CrmActivityRow {
  const row = tx
    .update(crmActivities)
    .set({ ...outcome, updatedAt: at })
    .where(eq(crmActivities.id, id))
    .returning()
    .get();
  announce(tx, at, actor, row, action);
  return row;
}
