import { z } from 'zod';
import { Id, Timestamp, TitleText } from '../../kernel/common-contract.js';
import { IssueRef } from '../params.js';
import { DocumentKey } from '../documents/contract.js';
import { INTERACTION_KINDS, INTERACTION_STATUSES, ISSUE_PRIORITIES } from '../schema.js';

const Text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);
const ClientId = z.string().min(1, 'must not be empty').max(100);

/** Flags the second and later items sharing `field`, at that item's field, so the error names it. */
function uniqueBy<K extends string>(field: K) {
  return (items: Record<K, string>[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item[field])) ctx.addIssue({ code: 'custom', path: [i, field], message: `duplicate ${field} "${item[field]}"` });
      seen.add(item[field]);
    });
  };
}

export const ConfirmationTarget = z.strictObject({
  type: z.literal('issue_document'),
  issueId: IssueRef.describe('This issue (UUID or identifier); stored as the UUID'),
  documentId: Id,
  key: DocumentKey,
  revisionId: Id.describe('Must be the current revision of the document'),
  revisionNumber: z.int().min(1),
});
export type ConfirmationTarget = z.infer<typeof ConfirmationTarget>;

/** Spec 2.6. Omitted optional fields are stored with their defaults, so readers never guess. */
export const RequestConfirmationPayload = z.strictObject({
  version: z.literal(1),
  prompt: Text(2000),
  acceptLabel: Text(60).default('Accept'),
  rejectLabel: Text(60).default('Reject'),
  rejectRequiresReason: z.boolean().default(false),
  rejectReasonLabel: Text(200).default('Reason'),
  detailsMarkdown: z.string().max(100_000).default(''),
  supersedeOnUserComment: z.boolean().default(false).describe('A board comment on the issue supersedes this confirmation while pending'),
  target: ConfirmationTarget.optional().describe('The document revision being confirmed; a newer revision supersedes the confirmation'),
});
export type RequestConfirmationPayload = z.infer<typeof RequestConfirmationPayload>;

export const SuggestedTask = z.strictObject({
  clientKey: ClientId.describe('Unique within the list; accept selects tasks by it'),
  title: TitleText(500),
  description: z.string().max(100_000).optional(),
  priority: z.enum(ISSUE_PRIORITIES).optional().describe('Default medium'),
  assigneeAgentId: Id.optional().describe('A living, hired agent of the company'),
});
export type SuggestedTask = z.infer<typeof SuggestedTask>;

export const SuggestTasksPayload = z.strictObject({
  version: z.literal(1),
  tasks: z.array(SuggestedTask).min(1).max(50).superRefine(uniqueBy('clientKey')),
});
export type SuggestTasksPayload = z.infer<typeof SuggestTasksPayload>;

export const QuestionOption = z.strictObject({ id: ClientId, label: Text(200) });

export const Question = z
  .strictObject({
    id: ClientId.describe('Unique within the list; answers are keyed by it'),
    prompt: Text(2000),
    kind: z.enum(['single', 'multi', 'text']),
    options: z.array(QuestionOption).min(1).max(50).superRefine(uniqueBy('id')).optional().describe('Required for single and multi, not allowed for text'),
  })
  .superRefine((q, ctx) => {
    if (q.kind !== 'text' && !q.options) ctx.addIssue({ code: 'custom', path: ['options'], message: `required for ${q.kind} questions` });
    if (q.kind === 'text' && q.options) ctx.addIssue({ code: 'custom', path: ['options'], message: 'not allowed for text questions' });
  });
export type Question = z.infer<typeof Question>;

export const AskUserQuestionsPayload = z.strictObject({
  version: z.literal(1),
  questions: z.array(Question).min(1).max(20).superRefine(uniqueBy('id')),
});
export type AskUserQuestionsPayload = z.infer<typeof AskUserQuestionsPayload>;

export const ContinuationPolicy = z.enum(['wake_assignee']);

const common = {
  idempotencyKey: z.string().min(1, 'must not be empty').max(200).describe('The same key on the same issue returns the first interaction (200) and creates nothing'),
  title: TitleText(300),
  summary: z.string().max(10_000).optional(),
  continuationPolicy: ContinuationPolicy.nullish().describe('wake_assignee: wake the issue assignee once the board accepts or answers'),
};

export const CreateInteractionBody = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('request_confirmation'), ...common, payload: RequestConfirmationPayload }),
  z.strictObject({ kind: z.literal('suggest_tasks'), ...common, payload: SuggestTasksPayload }),
  z.strictObject({ kind: z.literal('ask_user_questions'), ...common, payload: AskUserQuestionsPayload }),
]);
export type CreateInteractionInput = z.infer<typeof CreateInteractionBody>;

export const AcceptInteractionBody = z
  .strictObject({
    selectedClientKeys: z.array(ClientId).min(1).max(50).optional().describe('suggest_tasks only: the tasks to create (default all)'),
  })
  .nullish();

export const RejectInteractionBody = z
  .strictObject({ reason: z.string().max(10_000).nullish().describe('Required (non-blank) when payload.rejectRequiresReason is true') })
  .nullish();

export const Answer = z.union([z.string().max(10_000), z.array(ClientId).max(50)]);
export const RespondInteractionBody = z.strictObject({
  answers: z.record(z.string().max(100), Answer).describe('By question id: single → option id, multi → option ids, text → string'),
});
export type Answers = z.infer<typeof RespondInteractionBody>['answers'];

export const InteractionParams = z.strictObject({ issueId: IssueRef, interactionId: Id });

const ActorType = z.enum(['board', 'agent', 'system']);

export const Interaction = z
  .object({
    id: Id,
    companyId: Id,
    issueId: Id,
    kind: z.enum(INTERACTION_KINDS),
    idempotencyKey: z.string(),
    title: z.string(),
    summary: z.string(),
    continuationPolicy: ContinuationPolicy.nullable(),
    payload: z.record(z.string(), z.unknown()).describe('As validated for the kind, defaults filled in'),
    status: z.enum(INTERACTION_STATUSES),
    resolution: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('accepted: {wakeRequestId?, selectedClientKeys?, createdIssueIds?}; rejected: {reason}; answered: {answers}; superseded: {reason, ...}'),
    createdByType: ActorType,
    createdById: Id.nullable(),
    resolvedByType: ActorType.nullable(),
    resolvedById: Id.nullable(),
    resolvedAt: Timestamp.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'IssueInteraction' });
export type Interaction = z.infer<typeof Interaction>;
