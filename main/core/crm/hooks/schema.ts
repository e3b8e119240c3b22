import { sqliteTable, text, uniqueIndex, index } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../../db/columns.js';
import { companies } from '../../companies/schema.js';
import { issues, issueComments } from '../../issues/schema.js';

/**
 * What a post-issue hook delivered for an issue. The unique (hook, issue) pair is what makes the
 * coverage comment "once": a second `done` (after a reopen) finds the row and comments nothing.
 */
export const crmHookDeliveries = sqliteTable(
  'crm_hook_deliveries',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    hookId: text('hook_id').notNull(),
    hookType: text('hook_type').notNull(),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    commentId: text('comment_id').references(() => issueComments.id),
    /** The coverage counts (checked, passed, not passed, unchecked) as commented. */
    result: json<Record<string, unknown>>('result').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [uniqueIndex('crm_hook_deliveries_hook_issue_uq').on(t.hookId, t.issueId), index('crm_hook_deliveries_company_idx').on(t.companyId, t.createdAt)],
);
export type CrmHookDeliveryRow = typeof crmHookDeliveries.$inferSelect;
