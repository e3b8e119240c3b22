import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { issues } from '../issues/schema.js';

/** Channel values of spec 2.10, spelled exactly. */
export const CRM_CHANNELS = ['email', 'calendar', 'network_a', 'messaging_a', 'social_a', 'dry-run'] as const;
export type CrmChannel = (typeof CRM_CHANNELS)[number];

/**
 * Activity statuses. The first six are spec 3.5. `sending` marks an attempt between its quota
 * reservation and its outcome (seen only while the channel call is in flight, or after a crash until
 * start-up recovery finalizes it); `rejected` is a draft the board turned down (the spec names no
 * status for that, and a rejected draft must never be sent).
 */
export const CRM_ACTIVITY_STATUSES = [
  'draft_pending_approval',
  'sent',
  'sent_dryrun',
  'blocked_by_allowlist',
  'blocked_by_quota',
  'failed',
  'sending',
  'rejected',
] as const;
export type CrmActivityStatus = (typeof CRM_ACTIVITY_STATUSES)[number];

export const CRM_RULE_ACTIONS = ['auto_approve', 'queue_for_manual'] as const;
export type CrmRuleAction = (typeof CRM_RULE_ACTIONS)[number];

export const CRM_ALLOWLIST_KINDS = ['address', 'domain', 'phone', 'handle'] as const;
export type CrmAllowlistKind = (typeof CRM_ALLOWLIST_KINDS)[number];

export interface CrmRulePredicate {
  channel?: CrmChannel | null;
  niche?: string | null;
  tags?: string[];
  timeOfDay?: { start: string; end: string; tz: string } | null;
}

export const crmOutboxes = sqliteTable(
  'crm_outboxes',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    channel: text('channel', { enum: CRM_CHANNELS }).notNull(),
    niche: text('niche'),
    /** `secret://<secretId>:<version|latest>`, resolved only when a send needs it. */
    secretRef: text('secret_ref'),
    /** Channel settings (SMTP host/port/secure/fromAddress, a platform baseUrl, …); never secret values. */
    config: json<Record<string, unknown>>('config').notNull(),
    /** Sends a day (UTC) before `blocked_by_quota`; null = the default cap. */
    dailyCap: integer('daily_cap'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [index('crm_outboxes_company_idx').on(t.companyId, t.deletedAt)],
);
export type CrmOutboxRow = typeof crmOutboxes.$inferSelect;

/** Who may be contacted. No matching entry = blocked (default deny). */
export const crmAllowlistEntries = sqliteTable(
  'crm_allowlist_entries',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** Null = every channel. */
    channel: text('channel', { enum: CRM_CHANNELS }),
    /** Null = every outbox. */
    outboxId: text('outbox_id').references(() => crmOutboxes.id),
    kind: text('kind', { enum: CRM_ALLOWLIST_KINDS }).notNull(),
    /** Normalized: lower-case address/domain/handle (no leading @), E.164 phone. */
    value: text('value').notNull(),
    note: text('note'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    index('crm_allowlist_company_idx').on(t.companyId, t.kind, t.value),
    // The list's order (oldest first), so each page is a range, not a sort of the whole list.
    index('crm_allowlist_company_created_idx').on(t.companyId, t.createdAt),
  ],
);
export type CrmAllowlistEntryRow = typeof crmAllowlistEntries.$inferSelect;

export const crmApprovalRules = sqliteTable(
  'crm_approval_rules',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name'),
    predicate: json<CrmRulePredicate>('predicate').notNull(),
    action: text('action', { enum: CRM_RULE_ACTIONS }).notNull(),
    /** Lower is evaluated first; ties by creation order. */
    priority: integer('priority').notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull().default(true),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    /** Soft delete: activities keep naming the rule that decided them. */
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [index('crm_approval_rules_company_idx').on(t.companyId, t.priority)],
);
export type CrmApprovalRuleRow = typeof crmApprovalRules.$inferSelect;

export const crmContentPieces = sqliteTable(
  'crm_content_pieces',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** The issue this piece was written for (post-issue hooks read the pieces of an issue). */
    issueId: text('issue_id').references(() => issues.id),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    /** Relative, traversal-free path of the source file (source-path.ts). */
    sourcePath: text('source_path').notNull(),
    sourceSha256: text('source_sha256').notNull(),
    tags: json<string[]>('tags').notNull(),
    channelIntent: text('channel_intent', { enum: CRM_CHANNELS }),
    niche: text('niche'),
    frontmatter: json<Record<string, unknown>>('frontmatter').notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [
    // A soft-deleted piece frees its path.
    uniqueIndex('crm_content_pieces_path_uq')
      .on(t.companyId, t.sourcePath)
      .where(sql`${t.deletedAt} is null`),
    index('crm_content_pieces_issue_idx').on(t.issueId),
    index('crm_content_pieces_sha_idx').on(t.companyId, t.sourceSha256),
    // The list's order (oldest first, live pieces), so each page is a range, not a sort.
    index('crm_content_pieces_company_created_idx')
      .on(t.companyId, t.createdAt)
      .where(sql`${t.deletedAt} is null`),
  ],
);
export type CrmContentPieceRow = typeof crmContentPieces.$inferSelect;

/** One row per outbound message (its attempts update the row): what the board reviews. */
export const crmActivities = sqliteTable(
  'crm_activities',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    status: text('status', { enum: CRM_ACTIVITY_STATUSES }).notNull(),
    /** sha256 hex over (actor, contact, kind, payload), see dedup-key.ts. */
    dedupKey: text('dedup_key').notNull(),
    outboxId: text('outbox_id')
      .notNull()
      .references(() => crmOutboxes.id),
    channel: text('channel', { enum: CRM_CHANNELS }).notNull(),
    /** The normalized recipient (`to`). */
    contact: text('contact').notNull(),
    kind: text('kind').notNull(),
    payload: json<Record<string, unknown>>('payload').notNull(),
    tags: json<string[]>('tags').notNull(),
    niche: text('niche'),
    contentPieceId: text('content_piece_id').references(() => crmContentPieces.id),
    actorType: text('actor_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    actorId: text('actor_id'),
    /** Who asked: `api` (POST /crm/send) or a caller such as `sequence`; `originRef` is that caller's id. */
    origin: text('origin').notNull().default('api'),
    originRef: text('origin_ref'),
    /** The approval rule that decided (null: no rule matched, or the board approved by hand). */
    ruleId: text('rule_id').references(() => crmApprovalRules.id),
    decision: text('decision', { enum: ['auto_approve', 'queue_for_manual', 'board_approved', 'board_rejected'] }),
    decidedAt: timestamp('decided_at'),
    /** Set when the board approved a draft; a crash before its dispatch is resumed at start. */
    approvedAt: timestamp('approved_at'),
    /** UTC day (YYYY-MM-DD) whose quota unit the in-flight attempt holds. */
    quotaDay: text('quota_day'),
    dryRun: integer('dry_run', { mode: 'boolean' }).notNull().default(false),
    providerMessageId: text('provider_message_id'),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    /** A crash interrupted the channel call: the message may or may not have left. */
    possiblySent: integer('possibly_sent', { mode: 'boolean' }).notNull().default(false),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    sentAt: timestamp('sent_at'),
  },
  (t) => [
    uniqueIndex('crm_activities_dedup_uq').on(t.companyId, t.dedupKey),
    index('crm_activities_company_idx').on(t.companyId, t.status, t.createdAt),
    index('crm_activities_outbox_idx').on(t.outboxId, t.status),
    index('crm_activities_status_idx').on(t.status),
  ],
);
export type CrmActivityRow = typeof crmActivities.$inferSelect;

/** Units used per outbox and UTC day; reserved atomically before a send, refunded on failure. */
export const crmQuotaBuckets = sqliteTable(
  'crm_quota_buckets',
  {
    outboxId: text('outbox_id')
      .notNull()
      .references(() => crmOutboxes.id),
    /** UTC day, YYYY-MM-DD. */
    day: text('day').notNull(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    used: integer('used').notNull().default(0),
    cap: integer('cap').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.outboxId, t.day] }), index('crm_quota_company_idx').on(t.companyId, t.day)],
);
export type CrmQuotaBucketRow = typeof crmQuotaBuckets.$inferSelect;
