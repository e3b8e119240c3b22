import { z } from 'zod';
import { Id, Timestamp, TitleText } from '../kernel/common-contract.js';
import { ISSUE_PRIORITIES, ISSUE_STATUSES } from './schema.js';
import { DocumentSummary, PlanDocument } from './documents/contract.js';
import { LabelIds } from '../labels/contract.js';

export const IssueStatus = z.enum(ISSUE_STATUSES);
export const IssuePriority = z.enum(ISSUE_PRIORITIES).describe('critical, high, medium, low; lists sort in this order');

/** An agent UUID, or its shortname (urlKey) in the issue's company. */
export const AgentRef = z.string().trim().min(1).max(64);

export const Issue = z
  .object({
    id: Id,
    companyId: Id,
    identifier: z.string().describe('Readable id, e.g. ACME-42; accepted wherever {issueId} is'),
    number: z.int(),
    title: z.string(),
    description: z.string(),
    status: IssueStatus,
    priority: IssuePriority,
    assigneeAgentId: Id.nullable(),
    parentId: Id.nullable(),
    projectId: Id.nullable(),
    goalId: Id.nullable(),
    billingCode: z.string().nullable(),
    checkoutAgentId: Id.nullable().describe('Agent holding the checkout'),
    checkoutRunId: z.string().nullable(),
    checkedOutAt: Timestamp.nullable(),
    started_at: Timestamp.nullable().describe('Set when the status first becomes in_progress'),
    completed_at: Timestamp.nullable().describe('Set when the status becomes done; cleared on reopen'),
    cancelledAt: Timestamp.nullable(),
    createdByType: z.enum(['board', 'agent', 'system']),
    createdById: Id.nullable(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    lastActivityAt: Timestamp,
  })
  .meta({ id: 'Issue' });
export type Issue = z.infer<typeof Issue>;

/** An issue with its labels and dependencies: lists, GET, create and PATCH answer with this. */
export const IssueWithLinks = Issue.extend({
  labelIds: z.array(Id),
  blockedBy: z.array(Id).describe('Issues this one waits for'),
  blocks: z.array(Id).describe('Issues waiting for this one'),
  openBlockerIds: z.array(Id).describe('Blockers not yet done; while any is left the issue cannot be checked out'),
}).meta({ id: 'IssueWithLinks' });
export type IssueWithLinks = z.infer<typeof IssueWithLinks>;

const Title = TitleText(500);
const Description = z.string().max(100_000);
const BillingCode = z.string().trim().max(100);

export const CreateIssueBody = z.strictObject({
  title: Title,
  description: Description.optional(),
  status: IssueStatus.optional().describe('Default backlog; in_progress needs a checkout'),
  priority: IssuePriority.optional().describe('Default medium'),
  assigneeAgentId: AgentRef.nullable().optional(),
  parentId: Id.nullable().optional(),
  projectId: Id.nullable().optional(),
  goalId: Id.nullable().optional(),
  billingCode: BillingCode.nullable().optional(),
  labelIds: LabelIds.optional(),
});
export type CreateIssueInput = z.infer<typeof CreateIssueBody>;

export const PatchIssueBody = z.strictObject({
  title: Title.optional(),
  description: Description.optional(),
  status: IssueStatus.optional(),
  priority: IssuePriority.optional(),
  assigneeAgentId: AgentRef.nullable().optional(),
  projectId: Id.nullable().optional(),
  goalId: Id.nullable().optional(),
  parentId: Id.nullable().optional(),
  billingCode: BillingCode.nullable().optional(),
  comment: z.string().trim().min(1).optional().describe('Adds a comment in the same transaction; at most 64 KiB of UTF-8 (413 beyond)'),
  labelIds: LabelIds.optional(),
});
export type PatchIssueInput = z.infer<typeof PatchIssueBody>;

export const ListIssuesQuery = z.strictObject({
  status: z
    .string()
    .max(200)
    .optional()
    .describe('Comma-separated statuses')
    .transform((s, ctx) => {
      if (s === undefined || s === '') return undefined;
      const parts = s.split(',').map((p) => p.trim());
      const bad = parts.filter((p) => !(ISSUE_STATUSES as readonly string[]).includes(p));
      if (bad.length) {
        ctx.addIssue({ code: 'custom', message: `unknown status ${bad.join(', ')}; use ${ISSUE_STATUSES.join(', ')}` });
        return z.NEVER;
      }
      return parts as (typeof ISSUE_STATUSES)[number][];
    }),
  assigneeAgentId: AgentRef.optional(),
  projectId: Id.optional(),
  parentId: Id.optional(),
  labelId: Id.optional().describe('Only issues carrying this label'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(300).optional(),
});

export const IssuePage = z.object({ items: z.array(IssueWithLinks), nextCursor: z.string().nullable() }).meta({ id: 'IssuePage' });

const ProjectRef = z.object({ id: Id, name: z.string(), status: z.string() }).nullable();
const GoalRef = z.object({ id: Id, title: z.string(), status: z.string() }).nullable();

export const IssueDetail = IssueWithLinks.extend({
  project: ProjectRef,
  goal: GoalRef,
  ancestors: z
    .array(z.object({ id: Id, identifier: z.string(), title: z.string(), status: IssueStatus, project: ProjectRef, goal: GoalRef }))
    .describe('Parent first, then upward'),
  planDocument: PlanDocument.nullable(),
  documentSummaries: z.array(DocumentSummary),
  legacyPlanDocument: z
    .object({ body: z.string(), source: z.literal('description') })
    .nullable()
    .describe('Read-only: the text of a <plan>...</plan> block still in the description'),
}).meta({ id: 'IssueDetail' });
export type IssueDetail = z.infer<typeof IssueDetail>;

export const CheckoutBody = z.strictObject({
  agentId: Id.optional().describe('The agent taking the issue; agents may omit it (themselves)'),
  expectedStatuses: z
    .array(z.enum(['backlog', 'todo', 'blocked', 'in_review', 'in_progress']))
    .min(1)
    .max(5)
    .describe('Statuses the caller expects; list in_progress to adopt a lock of its own crashed run'),
});

export const Comment = z
  .object({
    id: Id,
    issueId: Id,
    authorType: z.enum(['board', 'agent', 'system']),
    authorAgentId: Id.nullable(),
    body: z.string(),
    mentionedAgentIds: z.array(Id),
    createdAt: Timestamp,
  })
  .meta({ id: 'Comment' });
export type Comment = z.infer<typeof Comment>;

/** The size cap (64 KiB of UTF-8, 413 beyond) and the rate are checked by the limits service. */
export const CreateCommentBody = z.strictObject({ body: z.string().trim().min(1, 'must not be empty') });

export const ListCommentsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('Comments per page (default 100, at most 500)'),
  after: z.string().max(200).optional().describe('The X-Next-Cursor of the previous page: comments after it, oldest first'),
});
