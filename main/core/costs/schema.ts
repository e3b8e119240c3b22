import { sqliteTable, text, integer, index, uniqueIndex, primaryKey } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { agents } from '../agents/schema.js';

/**
 * Cost events. Money is kept as an integer count of millionths of a cent so sums are exact and
 * sub-cent model prices survive; the API speaks `costCents` as a decimal number.
 */
export const costEvents = sqliteTable(
  'cost_events',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    agentId: text('agent_id')
      .notNull()
      .references(() => agents.id),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    costMicroCents: integer('cost_micro_cents').notNull(),
    runId: text('run_id'),
    issueId: text('issue_id'),
    projectId: text('project_id'),
    occurredAt: timestamp('occurred_at').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [
    // Covering: the month's spend per company and per agent, summed from this index alone when the
    // spend rollups are rebuilt (costs/rollups.ts); the routes read the rollups.
    index('cost_events_company_time_idx').on(t.companyId, t.occurredAt, t.agentId, t.costMicroCents),
    index('cost_events_agent_time_idx').on(t.agentId, t.occurredAt, t.costMicroCents),
  ],
);

export const MICRO_CENTS_PER_CENT = 1_000_000;

export type SpendScope = 'company' | 'agent' | 'project';

/**
 * Spend per UTC month of `occurred_at` for each company, agent and project (scope_id '' for costs
 * of no project), kept up to date in the transaction of every cost event (costs/rollups.ts), so the
 * spend routes and the budget checks read a handful of rows however long the history grows. Derived
 * from cost_events: rebuilt from them at start when empty and for a company on import.
 */
export const spendRollups = sqliteTable(
  'spend_rollups',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** `YYYY-MM`, the UTC month of the events' occurred_at. */
    month: text('month').notNull(),
    scope: text('scope', { enum: ['company', 'agent', 'project'] }).$type<SpendScope>().notNull(),
    /** The company's, agent's or project's id; '' for costs assigned to no project. */
    scopeId: text('scope_id').notNull(),
    costMicroCents: integer('cost_micro_cents').notNull(),
    inputTokens: integer('input_tokens').notNull(),
    outputTokens: integer('output_tokens').notNull(),
    events: integer('events').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.month, t.scope, t.scopeId] }),
    // One agent's month without its company id (the budget check before a run).
    index('spend_rollups_scope_idx').on(t.scopeId, t.month, t.scope),
  ],
);

/**
 * Budget thresholds crossed, one row per scope, window and threshold: the unique index is what
 * makes the 80% alert and the 100% stop happen once per month.
 */
export const budgetAlerts = sqliteTable(
  'budget_alerts',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** Null for the company's own budget. */
    agentId: text('agent_id').references(() => agents.id),
    scopeKey: text('scope_key').notNull(),
    windowStart: timestamp('window_start').notNull(),
    threshold: integer('threshold').notNull(),
    spentMicroCents: integer('spent_micro_cents').notNull(),
    budgetCents: integer('budget_cents').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [uniqueIndex('budget_alerts_once_uq').on(t.scopeKey, t.windowStart, t.threshold)],
);
