import { sqliteTable, text, index } from 'drizzle-orm/sqlite-core';
import { timestamp } from '../db/columns.js';
import { companies } from '../companies/schema.js';
import { issues } from '../issues/schema.js';
import { projects } from '../projects/schema.js';

/**
 * One per issue whose project has a workspace: the agent's own local clone of the founder's
 * repository under the data home (docs/architecture.md, "Workspaces"). The row is written only
 * after the clone is complete and in place, so a row always names a usable folder.
 */
export const issueWorkspaces = sqliteTable(
  'issue_workspaces',
  {
    issueId: text('issue_id')
      .primaryKey()
      .references(() => issues.id),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    projectId: text('project_id')
      .notNull()
      .references(() => projects.id),
    path: text('path').notNull(),
    branch: text('branch').notNull(),
    repoPath: text('repo_path').notNull(),
    baseBranch: text('base_branch').notNull(),
    /** The clone's .git/config as the server wrote it: restored before every server git command in it. */
    gitConfig: text('git_config').notNull(),
    createdAt: timestamp('created_at').notNull(),
    /** Set when merged into the base branch (retention removes merged workspaces of finished issues). */
    mergedAt: timestamp('merged_at'),
  },
  (t) => [index('issue_workspaces_company_idx').on(t.companyId)],
);

export type IssueWorkspaceRow = typeof issueWorkspaces.$inferSelect;
