import { sqliteTable, text, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { issues } from '../issues/schema.js';

export const labels = sqliteTable(
  'labels',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    /** `#rrggbb`. */
    color: text('color').notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [uniqueIndex('labels_company_name_uq').on(t.companyId, t.name)],
);
export type LabelRow = typeof labels.$inferSelect;

export const issueLabels = sqliteTable(
  'issue_labels',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    issueId: text('issue_id')
      .notNull()
      .references(() => issues.id),
    labelId: text('label_id')
      .notNull()
      .references(() => labels.id),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.issueId, t.labelId] }), index('issue_labels_label_idx').on(t.labelId, t.issueId)],
);
