import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { agents } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import { goals } from '../goals/schema.js';

export const ISSUE_STATUSES = ['backlog', 'todo', 'in_progress', 'in_review', 'blocked', 'done', 'cancelled'] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** Priorities in sort order; `priority_rank` stores the index so lists sort on an index. */
export const ISSUE_PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];

export const issues = sqliteTable(
  'issues',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    number: integer('number').notNull(),
    identifier: text('identifier').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ISSUE_STATUSES }).notNull(),
    priority: text('priority', { enum: ISSUE_PRIORITIES }).notNull(),
    priorityRank: integer('priority_rank').notNull(),
    assigneeAgentId: text('assignee_agent_id').references(() => agents.id),
    parentId: text('parent_id').references((): AnySQLiteColumn => issues.id),
    projectId: text('project_id').references(() => projects.id),
    goalId: text('goal_id').references(() => goals.id),
    billingCode: text('billing_code'),
    checkoutAgentId: text('checkout_agent_id').references(() => agents.id),
    checkoutRunId: text('checkout_run_id'),
    checkedOutAt: timestamp('checked_out_at'),
    startedAt: timestamp('started_at'),
    completedAt: timestamp('completed_at'),
    cancelledAt: timestamp('cancelled_at'),
    /** Soft delete by the board: the issue is gone from every list and lookup; its history stays. */
    deletedAt: timestamp('deleted_at'),
    createdByType: text('created_by_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    createdById: text('created_by_id'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    lastActivityAt: timestamp('last_activity_at').notNull(),
  },
  (t) => [
    uniqueIndex('issues_identifier_uq').on(t.identifier),
    uniqueIndex('issues_company_number_uq').on(t.companyId, t.number),
    // The list's order (priority, then activity) after the status: a page of one status is read
    // in order from the index, and a list of several statuses or none merges one walk per status
    // (list-query.ts). Every index holding the activity time rewrites an issue's entry on each
    // bump of it (checkout, release, comments, edits), so only these two hold it (migration 0019).
    // `deleted_at` last: an unfiltered list walks this index without reading the table.
    index('issues_company_status_idx').on(t.companyId, t.status, t.priorityRank, sql`${t.lastActivityAt} DESC`, t.id, t.deletedAt),
    // An agent's own open work ("my todo issues"): assignee and status, then the sort order.
    // The indexes keyed by a reference leave out the issues without one (an unassigned backlog, an
    // issue in no project): every lookup on them is `column = ?`, which implies IS NOT NULL, so
    // SQLite still uses them, and an issue without the reference skips their upkeep (a third of
    // a new issue's insert, bench/README.md).
    index('issues_assignee_status_idx')
      .on(t.assigneeAgentId, t.status, t.priorityRank, sql`${t.lastActivityAt} DESC`, t.id)
      .where(sql`${t.assigneeAgentId} IS NOT NULL`),
    // The inbox's long-blocked issues (inbox/blocked.ts), newest first: its page walks this and its
    // count reads the entries of the last day. Partial: an issue in any other status (nearly every
    // write) never touches it. The status and deletion columns, constant here, make it covering:
    // SQLite checks a partial index's condition on the table row otherwise, a lookup per entry.
    index('issues_blocked_idx')
      .on(t.companyId, sql`${t.lastActivityAt} DESC`, t.id, t.status, t.deletedAt)
      .where(sql`${t.status} = 'blocked' AND ${t.deletedAt} IS NULL`),
    index('issues_parent_idx').on(t.parentId).where(sql`${t.parentId} IS NOT NULL`),
    index('issues_project_idx').on(t.projectId).where(sql`${t.projectId} IS NOT NULL`),
  ],
);
export type IssueRow = typeof issues.$inferSelect;

export const issueComments = sqliteTable(
  'issue_comments',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    authorType: text('author_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    authorAgentId: text('author_agent_id').references(() => agents.id),
    body: text('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('issue_comments_issue_idx').on(t.issueId, t.createdAt)],
);
export type IssueCommentRow = typeof issueComments.$inferSelect;

/** An `@Name` in a comment that resolved to an agent of the company. */
export const issueMentions = sqliteTable(
  'issue_mentions',
  {
    id: text('id').primaryKey(),
    commentId: text('comment_id')
      .notNull()
      .references(() => issueComments.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    createdAt: timestamp('created_at').notNull(),
    readAt: timestamp('read_at'),
  },
  (t) => [index('issue_mentions_agent_idx').on(t.agentId, t.readAt), uniqueIndex('issue_mentions_comment_agent_uq').on(t.commentId, t.agentId)],
);

export const WAKE_REASONS = ['manual', 'schedule', 'mention', 'assignment', 'interaction_accepted', 'approval_decision'] as const;
export type WakeReason = (typeof WAKE_REASONS)[number];

/** Requests to wake an agent, stored for the heartbeat engine to consume. */
export const wakeRequests = sqliteTable(
  'wake_requests',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    reason: text('reason', { enum: WAKE_REASONS }).notNull(),
    issueId: text('issue_id'),
    commentId: text('comment_id'),
    interactionId: text('interaction_id'),
    approvalId: text('approval_id'),
    status: text('status', { enum: ['pending', 'consumed', 'skipped'] }).notNull().default('pending'),
    skipReason: text('skip_reason'),
    runId: text('run_id'),
    createdAt: timestamp('created_at').notNull(),
    processedAt: timestamp('processed_at'),
  },
  (t) => [index('wake_requests_agent_status_idx').on(t.agentId, t.status, t.createdAt)],
);
export type WakeRequestRow = typeof wakeRequests.$inferSelect;

export const issueDocuments = sqliteTable(
  'issue_documents',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    key: text('key').notNull(),
    title: text('title').notNull(),
    format: text('format').notNull(),
    body: text('body').notNull(),
    revisionNumber: integer('revision_number').notNull(),
    currentRevisionId: text('current_revision_id').notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [uniqueIndex('issue_documents_issue_key_uq').on(t.issueId, t.key).where(sql`${t.deletedAt} IS NULL`)],
);
export type IssueDocumentRow = typeof issueDocuments.$inferSelect;

export const issueDocumentRevisions = sqliteTable(
  'issue_document_revisions',
  {
    id: text('id').primaryKey(),
    documentId: text('document_id')
      .notNull()
      .references(() => issueDocuments.id),
    revisionNumber: integer('revision_number').notNull(),
    title: text('title').notNull(),
    format: text('format').notNull(),
    body: text('body').notNull(),
    authorType: text('author_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    authorId: text('author_id'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [uniqueIndex('issue_document_revisions_number_uq').on(t.documentId, t.revisionNumber)],
);
export type IssueDocumentRevisionRow = typeof issueDocumentRevisions.$inferSelect;

export const INTERACTION_KINDS = ['suggest_tasks', 'ask_user_questions', 'request_confirmation'] as const;
export const INTERACTION_STATUSES = ['pending', 'accepted', 'rejected', 'answered', 'superseded'] as const;

export const issueInteractions = sqliteTable(
  'issue_interactions',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    kind: text('kind', { enum: INTERACTION_KINDS }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    continuationPolicy: text('continuation_policy'),
    payload: json<Record<string, unknown>>('payload').notNull(),
    status: text('status', { enum: INTERACTION_STATUSES }).notNull(),
    resolution: json<Record<string, unknown>>('resolution'),
    createdByType: text('created_by_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    createdById: text('created_by_id'),
    resolvedByType: text('resolved_by_type', { enum: ['board', 'agent', 'system'] }),
    resolvedById: text('resolved_by_id'),
    resolvedAt: timestamp('resolved_at'),
    supersededById: text('superseded_by_id'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('issue_interactions_idempotency_uq').on(t.issueId, t.idempotencyKey),
    index('issue_interactions_issue_idx').on(t.issueId, t.createdAt),
  ],
);
export type IssueInteractionRow = typeof issueInteractions.$inferSelect;
