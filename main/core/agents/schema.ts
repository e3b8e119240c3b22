import { sql } from 'drizzle-orm';
import { sqliteTable, text, integer, index, uniqueIndex, type AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../db/columns.js';
import { companies } from '../companies/schema.js';

export const AGENT_STATUSES = ['draft', 'idle', 'running', 'paused', 'error', 'terminated'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const PAUSE_REASONS = ['manual', 'budget'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

export const agents = sqliteTable(
  'agents',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    urlKey: text('url_key').notNull(),
    role: text('role').notNull().default(''),
    title: text('title').notNull().default(''),
    reportsTo: text('reports_to').references((): AnySQLiteColumn => agents.id),
    capabilities: text('capabilities').notNull().default(''),
    status: text('status', { enum: AGENT_STATUSES }).notNull(),
    pauseReason: text('pause_reason', { enum: PAUSE_REASONS }),
    adapterType: text('adapter_type').notNull(),
    adapterConfig: json<Record<string, unknown>>('adapter_config').notNull(),
    budgetMonthlyCents: integer('budget_monthly_cents').notNull().default(0),
    terminatedAt: timestamp('terminated_at'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('agents_company_url_key_uq').on(t.companyId, t.urlKey),
    // Mentions address agents by name, so two living agents of a company never share one.
    uniqueIndex('agents_company_name_uq')
      .on(t.companyId, sql`lower(${t.name})`)
      .where(sql`${t.status} <> 'terminated'`),
    index('agents_reports_to_idx').on(t.reportsTo),
    // The agent list, the org chart and the spend per agent read a company's agents in creation
    // order (rowid breaking ties): from this index, with no sort of 200 rows each time (issue 17).
    index('agents_company_created_idx').on(t.companyId, t.createdAt),
  ],
);

export type AgentRow = typeof agents.$inferSelect;

/** Long-lived agent API keys: only a SHA-256 hash and a display prefix are kept. */
export const agentApiKeys = sqliteTable(
  'agent_api_keys',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull().default(''),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: timestamp('created_at').notNull(),
    lastUsedAt: timestamp('last_used_at'),
    revokedAt: timestamp('revoked_at'),
  },
  (t) => [uniqueIndex('agent_api_keys_hash_uq').on(t.keyHash), index('agent_api_keys_agent_idx').on(t.agentId)],
);

export type AgentApiKeyRow = typeof agentApiKeys.$inferSelect;

/** Every change of an agent's adapter configuration, numbered from 1 per agent. */
export const agentConfigRevisions = sqliteTable(
  'agent_config_revisions',
  {
    id: text('id').primaryKey(),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    revisionNumber: integer('revision_number').notNull(),
    adapterType: text('adapter_type').notNull(),
    adapterConfig: json<Record<string, unknown>>('adapter_config').notNull(),
    reason: text('reason', { enum: ['create', 'update', 'rollback'] }).notNull(),
    rolledBackFromRevisionId: text('rolled_back_from_revision_id'),
    actorType: text('actor_type', { enum: ['board', 'agent', 'system'] }).notNull(),
    actorId: text('actor_id'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [uniqueIndex('agent_config_revisions_number_uq').on(t.agentId, t.revisionNumber)],
);

export type AgentConfigRevisionRow = typeof agentConfigRevisions.$inferSelect;
