import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';

export const PROJECT_STATUSES = ['planned', 'active', 'completed', 'cancelled'] as const;

export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    status: text('status', { enum: PROJECT_STATUSES }).notNull().default('active'),
    /** The founder's repository (absolute path of its top folder) agents work on, one clone per issue. */
    workspaceRepoPath: text('workspace_repo_path'),
    workspaceBaseBranch: text('workspace_base_branch'),
    /** Run once in every new issue workspace (e.g. `npm install`), before the agent starts. */
    setupCommand: text('setup_command'),
    createdAt: timestamp('created_at').notNull(),
    updatedAt: timestamp('updated_at').notNull(),
  },
  // The projects list's order (oldest first), so each page is an index range.
  (t) => [index('projects_company_idx').on(t.companyId, t.createdAt)],
);

export type ProjectRow = typeof projects.$inferSelect;
