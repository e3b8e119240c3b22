import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, blob, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';

/** Secret metadata. Values live only encrypted, one row per version, in `secret_versions`. */
export const secrets = sqliteTable(
  'secrets',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    latestVersion: integer('latest_version').notNull(),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
    deletedAt: timestamp('deleted_at'),
  },
  (t) => [uniqueIndex('secrets_company_name_uq').on(t.companyId, t.name).where(sql`${t.deletedAt} IS NULL`)],
);
export type SecretRow = typeof secrets.$inferSelect;

/**
 * One encrypted value: AES-256-GCM with a random 12-byte IV; the authenticated data binds the
 * secret id and version so a ciphertext cannot be moved to another row. `keyGeneration` names the
 * master key it was sealed with (master-key rotation).
 */
export const secretVersions = sqliteTable(
  'secret_versions',
  {
    id: text('id').primaryKey(),
    secretId: text('secret_id')
      .notNull()
      .references(() => secrets.id),
    version: integer('version').notNull(),
    iv: blob('iv', { mode: 'buffer' }).notNull(),
    ciphertext: blob('ciphertext', { mode: 'buffer' }).notNull(),
    authTag: blob('auth_tag', { mode: 'buffer' }).notNull(),
    keyGeneration: integer('key_generation').notNull(),
    createdByType: text('created_by_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [uniqueIndex('secret_versions_number_uq').on(t.secretId, t.version)],
);
export type SecretVersionRow = typeof secretVersions.$inferSelect;

/**
 * The master key's state: its generation and a canary sealed with it, so the core can tell at
 * start which key (current, or one left pending by an interrupted rotation) opens the data.
 */
export const masterKeyState = sqliteTable('master_key_state', {
  id: integer('id').primaryKey(),
  generation: integer('generation').notNull(),
  canaryIv: blob('canary_iv', { mode: 'buffer' }).notNull(),
  canaryCiphertext: blob('canary_ciphertext', { mode: 'buffer' }).notNull(),
  canaryAuthTag: blob('canary_auth_tag', { mode: 'buffer' }).notNull(),
  rotatedAt: timestamp('rotated_at'),
});

