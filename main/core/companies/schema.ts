import { sqliteTable, text, integer, index, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { assets } from '../assets/schema.js';

export const companies = sqliteTable(
  'companies',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: ['active', 'paused', 'archived'] }).notNull().default('active'),
    logoAssetId: text('logo_asset_id').references((): AnySQLiteColumn => assets.id),
    budgetMonthlyCents: integer('budget_monthly_cents').notNull().default(0),
    /** Adapter type a new hire starts with in the board (not in the spec; null: the board picks). */
    defaultAdapterType: text('default_adapter_type'),
    /** Prefix of readable issue identifiers (`ACME-42`), unique across the instance. */
    issuePrefix: text('issue_prefix').notNull().default(''),
    /** Last issue number handed out in this company. */
    issueCounter: integer('issue_counter').notNull().default(0),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [index('companies_status_idx').on(t.status), uniqueIndex('companies_issue_prefix_uq').on(t.issuePrefix)],
);

export type CompanyRow = typeof companies.$inferSelect;
