import { z } from 'zod';
import { Id, Timestamp } from '../kernel/common-contract.js';

export const INBOX_KINDS = ['approval', 'interaction', 'run_failed', 'budget_warning', 'budget_stop', 'issue_blocked', 'crm_draft', 'limit_hit'] as const;
export const INBOX_ACTIONS = ['approve', 'reject', 'answer', 'accept', 'retry', 'open', 'dismiss'] as const;

export const InboxItem = z
  .object({
    id: z.string().describe('Stable: `<kind>:<object id>`; dismissals are kept per id'),
    kind: z.enum(INBOX_KINDS),
    title: z.string(),
    summary: z.string(),
    createdAt: Timestamp,
    link: z.object({ type: z.string().describe('approval, issue, heartbeat_run, costs, crm_activity, agent'), id: z.string(), path: z.string().describe('Board route, e.g. /issues/ACME-4') }),
    actions: z.array(z.enum(INBOX_ACTIONS)).describe('What the board can do inline; each maps to an existing endpoint'),
    refs: z.record(z.string(), z.string().nullable()).describe('Ids the actions need (issueId, interactionId, agentId, runId, ...)'),
  })
  .meta({ id: 'InboxItem' });
export type InboxItem = z.infer<typeof InboxItem>;

export const Inbox = z
  .object({
    items: z.array(InboxItem),
    count: z.int().describe('Every open item, not only this page'),
    nextCursor: z.string().nullable().describe('Pass as `cursor` for the next (older) page; null on the last'),
  })
  .meta({ id: 'Inbox' });
export const InboxQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  cursor: z.string().min(1).max(500).optional(),
});
export const InboxItemParams = z.strictObject({ companyId: Id, itemId: z.string().min(3).max(100) });
