import { sqliteTable, text, index, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { agents } from '../agents/schema.js';
import { issues } from '../issues/schema.js';

export const APPROVAL_TYPES = ['approve_ceo_strategy', 'hire_agent'] as const;
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'revision_requested', 'resubmitted'] as const;

export const approvals = sqliteTable(
  'approvals',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    type: text('type', { enum: APPROVAL_TYPES }).notNull(),
    status: text('status', { enum: APPROVAL_STATUSES }).notNull(),
    payload: json<Record<string, unknown>>('payload').notNull(),
    requestedByAgentId: text('requested_by_agent_id').references(() => agents.id),
    /** The draft agent of a `hire_agent` approval. */
    hireAgentId: text('hire_agent_id').references(() => agents.id),
    decisionNote: text('decision_note'),
    decidedByType: text('decided_by_type', { enum: ['board', 'agent', 'system'] }),
    decidedAt: timestamp('decided_at'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [index('approvals_company_status_idx').on(t.companyId, t.status)],
);
export type ApprovalRow = typeof approvals.$inferSelect;

/** Every state change with its note: the decision history the board sees. */
export const approvalEvents = sqliteTable(
  'approval_events',
  {
    id: text('id').primaryKey(),
    approvalId: text('approval_id')
      .notNull()
      .references(() => approvals.id),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    note: text('note'),
    payload: json<Record<string, unknown>>('payload'),
    actorType: text('actor_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('approval_events_approval_idx').on(t.approvalId, t.createdAt)],
);

export const approvalComments = sqliteTable(
  'approval_comments',
  {
    id: text('id').primaryKey(),
    approvalId: text('approval_id')
      .notNull()
      .references(() => approvals.id),
    authorType: text('author_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    authorAgentId: text('author_agent_id').references(() => agents.id),
    body: text('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('approval_comments_approval_idx').on(t.approvalId, t.createdAt)],
);

export const approvalIssues = sqliteTable(
  'approval_issues',
  {
    approvalId: text('approval_id')
      .notNull()
      .references(() => approvals.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.approvalId, t.issueId] }), index('approval_issues_issue_idx').on(t.issueId)],
);
