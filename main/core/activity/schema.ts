import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';

/**
 * Append-only audit log. `seq` gives a total order for cursor pagination; `company_id` is null
 * only for instance-level actions (creating a company is recorded under that company).
 */
export const activity = sqliteTable(
  'activity',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    companyId: text('company_id'),
    actorType: text('actor_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    actorId: text('actor_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    summary: text('summary').notNull(),
    details: json<Record<string, unknown>>('details'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    index('activity_company_seq_idx').on(t.companyId, t.seq),
    index('activity_entity_idx').on(t.entityType, t.entityId),
    // The inbox's limit hits of the last day: partial, so the writes of every other action (nearly
    // all of them) do not maintain it. Without it the inbox scanned the company's whole history
    // (0.4 s at 1.1 million activity rows). Queries must name the action as a literal to use it.
    index('activity_limit_hits_idx').on(t.companyId, t.createdAt).where(sql`action = 'limit.exceeded'`),
  ],
);

export type ActivityRow = typeof activity.$inferSelect;
