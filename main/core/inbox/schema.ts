import { sqliteTable, text, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';

/** Inbox items the board dismissed; item ids are stable (`kind:objectId`), so a dismissal sticks. */
export const inboxDismissals = sqliteTable(
  'inbox_dismissals',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    itemId: text('item_id').notNull(),
    dismissedAt: timestamp('dismissed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.itemId] })],
);
