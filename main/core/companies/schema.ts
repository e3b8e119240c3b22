import { sqliteTable, text, integer, index, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';

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

// `assets` is defined here, beside `companies`, because the two reference each other (a company's
// logo is one of its assets): one module keeps the import graph one-way. assets/schema.ts re-exports it.
/**
 * Stored files (logos now, issue attachments later). The bytes live under
 * `$SERVICE_HOME/attachments/<companyId>/<storageName>`, a generated name never derived from user input.
 */
export const assets = sqliteTable(
  'assets',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references((): AnySQLiteColumn => companies.id),
    kind: text('kind', { enum: ['logo', 'attachment'] }).notNull(),
    contentType: text('content_type').notNull(),
    byteSize: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    originalName: text('original_name').notNull(),
    storageName: text('storage_name').notNull(),
    createdByType: text('created_by_type', { enum: ['board', 'agent'] }).notNull(),
    createdById: text('created_by_id'),
    createdAt: timestamp('created_at').notNull(),
    /** Set for issue attachments. */
    issueId: text('issue_id'),
    /** Attachments are deleted softly: the row stays for the activity log, the bytes go. */
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [
    index('assets_company_idx').on(t.companyId),
    // An issue's attachments in their list's order (oldest first), so each page is an index range.
    index('assets_issue_idx').on(t.issueId, t.createdAt),
  ],
);

export type AssetRow = typeof assets.$inferSelect;

