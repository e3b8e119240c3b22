import { sqliteTable, text, integer, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { timestamp, json } from '../../db/columns.js';
import { companies } from '../../companies/schema.js';
import { crmActivities, crmOutboxes } from '../schema.js';

/** One step of a sequence: wait `delayMinutes` after the previous step (or the enrollment), then send. */
export interface SequenceStep {
  delayMinutes: number;
  /** The channel's kind (`message`, `invite`, …); default: the channel's first kind. */
  kind?: string | undefined;
  /** What is sent; when absent, built from the content piece (title → subject, summary → text). */
  payload?: Record<string, unknown> | undefined;
  contentPieceId?: string | undefined;
  tags?: string[] | undefined;
}

/** When steps may be sent: ISO weekdays (1 = Monday … 7 = Sunday), [start, end) on the local clock of `tz`. */
export interface SendWindow {
  weekdays: number[];
  start: string;
  end: string;
  tz: string;
}

export const SEQUENCE_STATUSES = ['active', 'paused'] as const;

export const crmSequences = sqliteTable(
  'crm_sequences',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    outboxId: text('outbox_id')
      .notNull()
      .references(() => crmOutboxes.id),
    steps: json<SequenceStep[]>('steps').notNull(),
    sendWindow: json<SendWindow>('send_window').notNull(),
    /** Paused: due steps wait (enrollments keep their place); active: the scheduler sends them. */
    status: text('status', { enum: SEQUENCE_STATUSES }).notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [index('crm_sequences_company_idx').on(t.companyId, t.deletedAt)],
);
export type CrmSequenceRow = typeof crmSequences.$inferSelect;

/**
 * Where one contact is in one sequence. `active` = waiting for `nextAt`; `waiting_approval` = the
 * current step is a draft the board has not decided; the rest are final.
 */
export const ENROLLMENT_STATUSES = ['active', 'waiting_approval', 'completed', 'stopped', 'failed'] as const;
export type EnrollmentStatus = (typeof ENROLLMENT_STATUSES)[number];

export const crmSequenceEnrollments = sqliteTable(
  'crm_sequence_enrollments',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    sequenceId: text('sequence_id')
      .notNull()
      .references(() => crmSequences.id),
    /** The recipient as given (the dispatcher normalizes it per channel). */
    contact: text('contact').notNull(),
    status: text('status', { enum: ENROLLMENT_STATUSES }).notNull(),
    /** Index of the step to send next (0-based); equals steps.length once completed. */
    stepIndex: integer('step_index').notNull(),
    /** When the current step is due (before the send window is applied); null once final. */
    nextAt: timestamp('next_at'),
    /** Failed attempts of the current step (reset when it is sent). */
    failures: integer('failures').notNull().default(0),
    lastActivityId: text('last_activity_id').references(() => crmActivities.id),
    /** The last dispatch outcome (an activity status) or why the enrollment stopped. */
    lastOutcome: text('last_outcome'),
    stopReason: text('stop_reason'),
    enrolledByType: text('enrolled_by_type', { enum: ['board', 'agent'] }).notNull(),
    enrolledById: text('enrolled_by_id'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    // A contact is in a sequence at most once while the enrollment is live.
    uniqueIndex('crm_enrollments_live_uq')
      .on(t.sequenceId, t.contact)
      .where(sql`${t.status} in ('active', 'waiting_approval')`),
    index('crm_enrollments_due_idx').on(t.status, t.nextAt),
    // A sequence's enrollments in the list's order (newest first), so each page is a range.
    index('crm_enrollments_company_idx').on(t.companyId, t.sequenceId, t.createdAt),
  ],
);
export type CrmSequenceEnrollmentRow = typeof crmSequenceEnrollments.$inferSelect;

