import { z } from 'zod';
import { Cents, Id, LongText, Name, Timestamp } from '../kernel/common-contract.js';
import { Agent, CreateAgentBody } from '../agents/contract.js';
import { IssueRef } from '../issues/params.js';
import { APPROVAL_STATUSES, APPROVAL_TYPES } from './schema.js';

export const ApprovalType = z.enum(APPROVAL_TYPES);
export const ApprovalStatus = z
  .enum(APPROVAL_STATUSES)
  .describe('pending → approved | rejected | revision_requested; revision_requested → (resubmit) resubmitted → pending. No approval rests in resubmitted.');
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** A payload is the requester's document; 256 KiB of JSON is far above any real one and well under the body limit. */
export const MAX_PAYLOAD_BYTES = 256 * 1024;
const jsonBytes = (v: unknown): number => new TextEncoder().encode(JSON.stringify(v)).length;

/**
 * Spec 2.3: the payload is an object whose shape depends on the type. A strategy is whatever the CEO
 * writes (the board reads it), so it is free-form; the board's page shows `title`, `horizon` and
 * `strategyMarkdown` when present and the JSON otherwise. No `version` field: that belongs to
 * interaction payloads.
 */
export const StrategyPayload = z
  .record(z.string(), z.unknown())
  .refine((p) => jsonBytes(p) <= MAX_PAYLOAD_BYTES, `must be at most ${MAX_PAYLOAD_BYTES} bytes of JSON`)
  .describe('Free-form. Conventional fields the board page shows: title, strategyMarkdown (markdown), horizon')
  .meta({ id: 'StrategyPayload' });
export type StrategyPayload = z.infer<typeof StrategyPayload>;

// The hire fields reuse the agent rules, so a hire can never ask for an agent the agents API would refuse.
const hireFields = {
  name: Name,
  role: CreateAgentBody.shape.role.unwrap(),
  title: CreateAgentBody.shape.title.unwrap().optional(),
  reportsTo: Id.nullable().describe('A living agent of the company; null for the top of the org'),
  capabilities: LongText,
  budgetMonthlyCents: Cents.describe('0 means no limit'),
  adapterType: CreateAgentBody.shape.adapterType
    .optional()
    .describe("Optional: without it the hire runs like its manager (else the requesting agent, else the company's first agent), credentials not copied"),
  adapterConfig: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Validated for the adapter type; stored with defaults. From an agent, it may reference only secrets its own configuration holds (403 secret_not_granted)'),
  reason: z.string().max(10_000).optional().describe('Why the company needs this agent, for the board'),
};

/** A hire_agent approval's payload as stored (every field filled in), and as resubmitted. */
export const HireAgentPayload = z
  .strictObject({ version: z.literal(1).optional().describe('Ignored; older clients sent it'), ...hireFields })
  .meta({ id: 'HireAgentPayload' });
export type HireAgentPayload = z.infer<typeof HireAgentPayload>;

export const CreateHireBody = z.strictObject({
  ...hireFields,
  requestedByAgentId: Id.optional().describe('Agents: themselves (the default). The board may name a living agent, or leave it unset.'),
});
export type CreateHireInput = z.infer<typeof CreateHireBody>;

const Payload = z.record(z.string(), z.unknown());

export const CreateApprovalBody = z.strictObject({
  type: ApprovalType.describe('hire_agent is refused here (400 use_agent_hires): hires come with their draft agent, see agent-hires'),
  requestedByAgentId: Id.describe('A living agent of the company; an agent credential may name only itself'),
  payload: Payload.describe('Type-dependent; approve_ceo_strategy: any object (StrategyPayload)'),
  issueIds: z.array(IssueRef).max(50).optional().describe('Issues of the same company (UUID or identifier) to link'),
});
export type CreateApprovalInput = z.infer<typeof CreateApprovalBody>;

export const DecisionBody = z.strictObject({ decisionNote: z.string().max(10_000).nullish() }).nullish();

export const ResubmitBody = z.strictObject({
  payload: Payload.describe('The whole new payload for the type: any object for a strategy, HireAgentPayload for a hire (its fields update the draft agent)'),
});

export const ListApprovalsQuery = z.strictObject({
  status: z
    .string()
    .max(200)
    .optional()
    .describe('One status or a comma-separated list')
    .transform((s, ctx) => {
      if (s === undefined || s === '') return undefined;
      const parts = s.split(',').map((p) => p.trim());
      const bad = parts.filter((p) => !(APPROVAL_STATUSES as readonly string[]).includes(p));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `unknown status ${bad.join(', ')}; use ${APPROVAL_STATUSES.join(', ')}` });
        return z.NEVER;
      }
      return parts as ApprovalStatus[];
    }),
});

export const ApprovalIdParams = z.strictObject({ approvalId: Id });

const ActorType = z.enum(['board', 'agent', 'system']);

export const Approval = z
  .object({
    id: Id,
    companyId: Id,
    type: ApprovalType,
    status: ApprovalStatus,
    payload: Payload,
    requestedByAgentId: Id.nullable(),
    hireAgentId: Id.nullable().describe('hire_agent: the draft agent, activated on approval'),
    decisionNote: z.string().nullable().describe('Note of the current decision; cleared on resubmit (the history keeps it)'),
    decidedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Approval' });
export type Approval = z.infer<typeof Approval>;

export const ApprovalHistoryEntry = z.object({
  fromStatus: ApprovalStatus.nullable(),
  toStatus: ApprovalStatus,
  note: z.string().nullable(),
  actorType: ActorType,
  actorId: Id.nullable(),
  createdAt: Timestamp,
});

export const ApprovalDetail = Approval.extend({
  history: z.array(ApprovalHistoryEntry).describe('Every state change, oldest first'),
}).meta({ id: 'ApprovalDetail' });
export type ApprovalDetail = z.infer<typeof ApprovalDetail>;

export const HireResult = z.object({ agent: Agent, approval: ApprovalDetail }).meta({ id: 'HireResult' });

export const ApprovalComment = z
  .object({ id: Id, approvalId: Id, authorType: ActorType, authorAgentId: Id.nullable(), body: z.string(), createdAt: Timestamp })
  .meta({ id: 'ApprovalComment' });
export type ApprovalComment = z.infer<typeof ApprovalComment>;

export const CreateApprovalCommentBody = z.strictObject({ body: z.string().trim().min(1, 'must not be empty').max(65_536) });
