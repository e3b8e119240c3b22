import { sql } from 'drizzle-orm';
import { jsonObject } from '../db/json-row.js';
import { issues } from './schema.js';

/**
 * `toIssue` (present.ts) as SQLite writes it, for the issue list (db/json-row.ts): the same fields
 * under the same names. Held to `toIssue`'s output, field by field, by
 * test/unit/issues/issue-json.test.ts.
 */
export const ISSUE_JSON = sql<string>`${jsonObject({
  id: issues.id,
  companyId: issues.companyId,
  identifier: issues.identifier,
  number: issues.number,
  title: issues.title,
  description: issues.description,
  status: issues.status,
  priority: issues.priority,
  assigneeAgentId: issues.assigneeAgentId,
  parentId: issues.parentId,
  projectId: issues.projectId,
  goalId: issues.goalId,
  billingCode: issues.billingCode,
  checkoutAgentId: issues.checkoutAgentId,
  checkoutRunId: issues.checkoutRunId,
  checkedOutAt: issues.checkedOutAt,
  started_at: issues.startedAt,
  completed_at: issues.completedAt,
  cancelledAt: issues.cancelledAt,
  createdByType: issues.createdByType,
  createdById: issues.createdById,
  createdAt: issues.createdAt,
  updatedAt: issues.updatedAt,
  lastActivityAt: issues.lastActivityAt,
})}`;
