import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { agents } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import { issues, ISSUE_PRIORITIES } from '../issues/schema.js';

export const ROUTINE_TRIGGER_KINDS = ['schedule', 'webhook', 'api'] as const;
export const CATCH_UP_POLICIES = ['skip', 'once', 'all'] as const;
export const CONCURRENCY_POLICIES = ['skip_if_open', 'always'] as const;

export const routines = sqliteTable(
  'routines',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    assigneeAgentId: text('assignee_agent_id')
      .notNull()
      .references(() => agents.id),
    projectId: text('project_id').references(() => projects.id),
    priority: text('priority', { enum: ISSUE_PRIORITIES }).notNull(),
    triggerKind: text('trigger_kind', { enum: ROUTINE_TRIGGER_KINDS }).notNull(),
    cron: text('cron'),
    timezone: text('timezone'),
    /** sha256 hex of the webhook token; the token itself is shown once and never stored. */
    webhookTokenHash: text('webhook_token_hash'),
    catchUp: text('catch_up', { enum: CATCH_UP_POLICIES }).notNull(),
    concurrency: text('concurrency', { enum: CONCURRENCY_POLICIES }).notNull(),
    enabled: integer('enabled', { mode: 'boolean' }).notNull(),
    /** Slots at or before this instant have been looked at; moved forward in the claim transaction. */
    scheduledThrough: timestamp('scheduled_through'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [
    // Live routines of a company in their list's order (by title), so each page is an index range.
    index('routines_company_idx').on(t.companyId, t.deletedAt, t.title),
    index('routines_webhook_token_idx').on(t.webhookTokenHash),
  ],
);
export type RoutineRow = typeof routines.$inferSelect;

export const FIRING_TRIGGERS = ['schedule', 'catch_up', 'webhook', 'api'] as const;
export const FIRING_OUTCOMES = ['pending', 'issue_created', 'skipped_missed', 'skipped_open_issue', 'cancelled'] as const;
export type FiringOutcome = (typeof FIRING_OUTCOMES)[number];

/**
 * One row per firing. `slotKey` (the slot's wall-clock time in the routine's timezone) is UNIQUE per
 * routine: whichever process or tick inserts it first owns the slot, so a slot can never fire twice,
 * and an ambiguous wall-clock time (DST fall-back) is one slot. Webhook and API firings have no slot.
 */
export const routineFirings = sqliteTable(
  'routine_firings',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    routineId: text('routine_id')
      .notNull()
      .references(() => routines.id),
    slotKey: text('slot_key'),
    slotAt: timestamp('slot_at'),
    trigger: text('trigger', { enum: FIRING_TRIGGERS }).notNull(),
    outcome: text('outcome', { enum: FIRING_OUTCOMES }).notNull(),
    reason: text('reason'),
    issueId: text('issue_id').references(() => issues.id),
    payload: json<unknown>('payload'),
    firedAt: timestamp('fired_at').notNull(),
  },
  (t) => [uniqueIndex('routine_firings_slot_uq').on(t.routineId, t.slotKey), index('routine_firings_routine_idx').on(t.routineId, t.firedAt), index('routine_firings_outcome_idx').on(t.outcome)],
);
export type RoutineFiringRow = typeof routineFirings.$inferSelect;
