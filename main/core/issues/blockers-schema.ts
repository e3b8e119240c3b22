import { sqliteTable, text, index, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { issues } from './schema.js';

/** `issueId` waits for `blockerIssueId` to be done. Both belong to `companyId`. */
export const issueBlockers = sqliteTable(
  'issue_blockers',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    blockerIssueId: text('blocker_issue_id')
      .notNull()
      .references(() => issues.id),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.blockerIssueId] }), index('issue_blockers_blocker_idx').on(t.blockerIssueId)],
);
export type IssueBlockerRow = typeof issueBlockers.$inferSelect;
