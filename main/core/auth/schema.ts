import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';

/**
 * Browser sessions of the board (the HttpOnly cookie). The cookie carries a random secret; only its
 * hash is stored, so a copy of the database does not sign anyone in. Deleting a row signs out.
 */
export const boardSessions = sqliteTable(
  'board_sessions',
  {
    /** SHA-256 of the cookie's secret. */
    id: text('id').primaryKey(),
    createdAt: timestamp('created_at').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    lastSeenAt: timestamp('last_seen_at').notNull(),
  },
  (t) => [index('board_sessions_expires_idx').on(t.expiresAt)],
);
