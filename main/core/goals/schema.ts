import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { projects } from '../projects/schema.js';

export const GOAL_STATUSES = ['active', 'achieved', 'abandoned'] as const;

export const goals = sqliteTable(
  'goals',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    projectId: text('project_id').references(() => projects.id),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: GOAL_STATUSES }).notNull().default('active'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  // The goals list's order (oldest first), so each page is an index range.
  (t) => [index('goals_company_idx').on(t.companyId, t.createdAt)],
);

export type GoalRow = typeof goals.$inferSelect;
