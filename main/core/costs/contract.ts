import { z } from 'zod';
import { Cents, Id, Timestamp } from '../kernel/common-contract.js';
import { MAX_EVENT_CENTS } from './money.js';
import { MONTH_PATTERN } from './window.js';

const TokenCount = z.int().min(0).describe('Non-negative integer');
const Label = z.string().trim().min(1, 'must not be empty').max(200);
/** Issues are named by UUID or readable identifier (`ACME-42`), as everywhere in the API. */
const IssueRef = z
  .string()
  .trim()
  .regex(/^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,9})$/i, 'must be an issue UUID or identifier');

/** Spec 2.7, plus where the cost belongs. */
export const CreateCostEventBody = z.strictObject({
  agentId: Id.describe('The agent that incurred the cost; an agent credential may report only for itself'),
  provider: Label,
  model: Label,
  inputTokens: TokenCount,
  outputTokens: TokenCount,
  costCents: z
    .number()
    .min(0)
    .max(MAX_EVENT_CENTS)
    .describe('Cents, decimals allowed; kept exactly to a millionth of a cent (rounded half up)'),
  runId: Id.optional().describe('Heartbeat run; defaults to the run of a run-token credential'),
  issueId: IssueRef.optional(),
  projectId: Id.optional().describe("Defaults to the issue's project when an issue is given"),
  occurredAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO-8601 timestamp' })
    .optional()
    .describe('Default now; at most 5 minutes in the future. Decides the month the cost counts to'),
});
export type CreateCostEventInput = z.infer<typeof CreateCostEventBody>;

export const CostEvent = z
  .object({
    id: Id,
    companyId: Id,
    agentId: Id,
    provider: z.string(),
    model: z.string(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    costCents: z.number(),
    runId: z.string().nullable(),
    issueId: Id.nullable(),
    projectId: Id.nullable(),
    occurredAt: Timestamp,
    createdAt: Timestamp,
  })
  .meta({ id: 'CostEvent' });
export type CostEvent = z.infer<typeof CostEvent>;

export const CostsQuery = z.strictObject({
  month: z
    .string()
    .regex(MONTH_PATTERN, 'must be a month as YYYY-MM')
    .optional()
    .describe('UTC calendar month to report; default the current one'),
});

const Utilization = z.number().nullable().describe('spent / budget (1 = the whole budget); null when the budget is 0 (no limit)');
const Month = z.string().describe('YYYY-MM (UTC)');

export const CostSummary = z
  .object({
    month: Month,
    windowStart: Timestamp,
    windowEnd: Timestamp.describe('Exclusive'),
    spentCents: z.number(),
    budgetMonthlyCents: Cents.describe("The company's current budget; 0 means no limit"),
    utilization: Utilization,
    status: z.enum(['ok', 'warning', 'exceeded']).describe('warning from 80%; exceeded once 100% is reached (hard stop)'),
  })
  .meta({ id: 'CostSummary' });
export type CostSummary = z.infer<typeof CostSummary>;

export const AgentCosts = z
  .object({
    agentId: Id,
    name: z.string(),
    spentCents: z.number(),
    budgetMonthlyCents: Cents,
    utilization: Utilization,
    inputTokens: z.number(),
    outputTokens: z.number(),
    events: z.number(),
  })
  .meta({ id: 'AgentCosts' });
export type AgentCosts = z.infer<typeof AgentCosts>;

export const ProjectCosts = z
  .object({
    projectId: Id.nullable().describe('null: costs not assigned to a project'),
    name: z.string(),
    spentCents: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    events: z.number(),
  })
  .meta({ id: 'ProjectCosts' });
export type ProjectCosts = z.infer<typeof ProjectCosts>;
