import { z } from 'zod';
import { Id, PageQuery, Timestamp } from '../kernel/common-contract.js';
import { CrmChannel, Tags } from './contract-config.js';
import { CRM_ACTIVITY_STATUSES } from './schema.js';

export * from './contract-config.js';
export * from './contract-content.js';

export const ActivityStatus = z
  .enum(CRM_ACTIVITY_STATUSES)
  .describe('Spec 3.5, plus `sending` (channel call in flight) and `rejected` (draft refused by the board)');

export const CrmActivity = z
  .object({
    id: Id,
    companyId: Id,
    status: ActivityStatus,
    dedupKey: z.string(),
    outboxId: Id,
    channel: CrmChannel,
    to: z.string(),
    kind: z.string(),
    payload: z.record(z.string(), z.unknown()),
    tags: z.array(z.string()),
    niche: z.string().nullable(),
    contentPieceId: Id.nullable(),
    actorType: z.enum(['board', 'agent', 'system']),
    actorId: z.string().nullable(),
    origin: z.string(),
    originRef: z.string().nullable(),
    ruleId: Id.nullable(),
    decision: z.enum(['auto_approve', 'queue_for_manual', 'board_approved', 'board_rejected']).nullable(),
    decidedAt: Timestamp.nullable(),
    approvedAt: Timestamp.nullable(),
    dryRun: z.boolean(),
    providerMessageId: z.string().nullable(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
    possiblySent: z.boolean().describe('A crash interrupted the channel call: the message may have left'),
    attempts: z.int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    sentAt: Timestamp.nullable(),
  })
  .meta({ id: 'CrmActivity' });
export type CrmActivity = z.infer<typeof CrmActivity>;

export const SendBody = z.strictObject({
  channel: CrmChannel,
  outboxId: Id,
  to: z.string().trim().min(1).max(320).describe('E-mail address (email, calendar), E.164 phone (messaging_a), handle (network_a, social_a)'),
  kind: z.string().min(1).max(64).optional().describe('email: message; calendar: invite; network_a: message | connection_request; messaging_a: message; social_a: direct_message'),
  payload: z.record(z.string(), z.unknown()).describe('Channel-specific, see docs/crm.md'),
  contentPieceId: Id.nullable().optional(),
  tags: Tags.optional(),
  clientDedupKey: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
    .optional()
    .describe('sha256 hex of canonical JSON [actor, contact, kind, payload]; must equal the server key'),
});
export type SendInput = z.infer<typeof SendBody>;
export const SendResult = CrmActivity.extend({ replayed: z.boolean().describe('True when the dedup key matched: nothing was sent again') }).meta({ id: 'CrmSendResult' });

export const ListActivitiesQuery = z.strictObject({
  status: ActivityStatus.optional(),
  outboxId: Id.optional(),
  channel: CrmChannel.optional(),
  ...PageQuery,
});
export type ListActivitiesQuery = z.infer<typeof ListActivitiesQuery>;
export const ActivityPage = z.object({ items: z.array(CrmActivity), nextCursor: z.string().nullable() }).meta({ id: 'CrmActivityPage' });
export const ActivityIdParams = z.strictObject({ companyId: Id, activityId: Id });

export const BulkApproveBody = z.strictObject({
  approvalIds: z.array(Id).min(1).max(500).describe('Ids of activities in draft_pending_approval'),
});
export const BulkApproveResult = z
  .object({
    approved: z.int().describe('How many drafts were approved (all, or the request was refused)'),
    results: z.array(CrmActivity).describe('Each draft after its dispatch: sent, sent_dryrun, blocked_* or failed'),
  })
  .meta({ id: 'CrmBulkApproveResult' });
export const RejectBody = z.strictObject({ note: z.string().max(2000).optional() }).nullish();

export const QuotaRow = z
  .object({
    outboxId: Id,
    outboxName: z.string(),
    channel: CrmChannel,
    day: z.string().describe('UTC day YYYY-MM-DD'),
    used: z.int(),
    cap: z.int(),
    remaining: z.int(),
    resetsAt: Timestamp,
  })
  .meta({ id: 'CrmQuota' });
export type QuotaRow = z.infer<typeof QuotaRow>;

export const CrmSettings = z
  .object({ forceDryRun: z.boolean().describe('Every send becomes a dry run (default true)') })
  .meta({ id: 'CrmSettings' });
export const UpdateCrmSettingsBody = z.strictObject({ forceDryRun: z.boolean() });
