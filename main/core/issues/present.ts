import { eq, sql } from 'drizzle-orm';
import { prepared } from '../db/prepared.js';
import { issueRowById, visibleIssue } from './lookup.js';
import { issues, type IssueRow } from './schema.js';
import type { Actor } from '../kernel/actor.js';
import type { Issue, IssueDetail } from './contract.js';
import { projects } from '../projects/schema.js';
import { goals } from '../goals/schema.js';
import type { Queryable } from '../context.js';
import { legacyPlanBlock } from './legacy-plan.js';
import { documentsView } from './documents/service.js';
import { linkColumns, linkMembersFrom, type LinkColumns } from './links.js';
import { ISSUE_JSON } from './issue-json.js';
import { jsonValue, withMembers } from '../kernel/json-text.js';

export function toIssue(row: IssueRow): Issue {
  return {
    id: row.id,
    companyId: row.companyId,
    identifier: row.identifier,
    number: row.number,
    title: row.title,
    description: row.description,
    status: row.status,
    priority: row.priority,
    assigneeAgentId: row.assigneeAgentId,
    parentId: row.parentId,
    projectId: row.projectId,
    goalId: row.goalId,
    billingCode: row.billingCode,
    checkoutAgentId: row.checkoutAgentId,
    checkoutRunId: row.checkoutRunId,
    checkedOutAt: row.checkedOutAt,
    started_at: row.startedAt,
    completed_at: row.completedAt,
    cancelledAt: row.cancelledAt,
    createdByType: row.createdByType,
    createdById: row.createdById,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lastActivityAt: row.lastActivityAt,
  };
}

// Read on every GET of an issue: built once per connection (db/prepared.ts).
const projectById = (db: Queryable) =>
  prepared(db, 'issues.projectRef', (d) => d.select({ id: projects.id, name: projects.name, status: projects.status }).from(projects).where(eq(projects.id, sql.placeholder('id'))).prepare());
const goalById = (db: Queryable) =>
  prepared(db, 'issues.goalRef', (d) => d.select({ id: goals.id, title: goals.title, status: goals.status }).from(goals).where(eq(goals.id, sql.placeholder('id'))).prepare());

const projectRef = (db: Queryable, id: string | null) => (id ? (projectById(db).get({ id }) ?? null) : null);
const goalRef = (db: Queryable, id: string | null) => (id ? (goalById(db).get({ id }) ?? null) : null);

// The GET's issue and its links in one statement: in the server each statement has a fixed cost
// that its work in SQLite does not show (bench/README.md, issue 17). The issue itself comes as JSON
// written by SQLite (issue-json.ts), with only the columns the rest of the answer needs beside it.
// Built once per connection.
const detailColumns = {
  id: issues.id,
  companyId: issues.companyId,
  deletedAt: issues.deletedAt,
  parentId: issues.parentId,
  projectId: issues.projectId,
  goalId: issues.goalId,
  description: issues.description,
  json: ISSUE_JSON,
  ...linkColumns,
};
type DetailRow = Pick<IssueRow, 'id' | 'companyId' | 'deletedAt' | 'parentId' | 'projectId' | 'goalId' | 'description'> & LinkColumns & { json: string };
const detailById = (db: Queryable) => prepared(db, 'issues.detailJsonById', (d) => d.select(detailColumns).from(issues).where(eq(issues.id, sql.placeholder('id'))).prepare());
const detailByIdentifier = (db: Queryable) =>
  prepared(db, 'issues.detailJsonByIdentifier', (d) => d.select(detailColumns).from(issues).where(eq(issues.identifier, sql.placeholder('identifier'))).prepare());

/**
 * GET of one issue by UUID or identifier, visible to the actor (else 404): the issue plus its
 * context (spec 2.4), as JSON text (kernel/json-text.ts): the issue's columns are never read into V8.
 */
export function requireIssueDetail(db: Queryable, actor: Actor, idOrIdentifier: string): IssueDetail {
  const row: DetailRow = visibleIssue(actor, idOrIdentifier, (id) => detailById(db).get({ id }), (identifier) => detailByIdentifier(db).get({ identifier }));
  // The context's object written without its braces is the members to append.
  const context = JSON.stringify(detailParts(db, row.id, row)).slice(1, -1);
  return jsonValue<IssueDetail>(withMembers(row.json, `${linkMembersFrom(row)},${context}`));
}

/** What an issue's detail adds to the issue and its links (spec 2.4). */
function detailParts(db: Queryable, issueId: string, row: Pick<IssueRow, 'parentId' | 'projectId' | 'goalId' | 'description'>) {
  const ancestors: IssueDetail['ancestors'] = [];
  const seen = new Set([issueId]);
  let parentId = row.parentId;
  while (parentId && !seen.has(parentId)) {
    seen.add(parentId);
    const parent = issueRowById(db, parentId);
    if (!parent) break;
    ancestors.push({
      id: parent.id,
      identifier: parent.identifier,
      title: parent.title,
      status: parent.status,
      project: projectRef(db, parent.projectId),
      goal: goalRef(db, parent.goalId),
    });
    parentId = parent.parentId;
  }
  const legacy = legacyPlanBlock(row.description);
  return {
    project: projectRef(db, row.projectId),
    goal: goalRef(db, row.goalId),
    ancestors,
    ...documentsView(db, issueId),
    legacyPlanDocument: legacy ? { body: legacy, source: 'description' as const } : null,
  };
}
