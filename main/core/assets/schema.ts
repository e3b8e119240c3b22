import { sqliteTable, text, integer, index, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';

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
  (t) => [index('assets_company_idx').on(t.companyId), index('assets_issue_idx').on(t.issueId)],
);

export type AssetRow = typeof assets.$inferSelect;
