import { eq, sql } from 'drizzle-orm';
import type { Issue, IssueWithLinks } from './contract.js';
import { relationsOf } from './blockers.js';
import { labelIdsOf } from '../labels/service.js';
import { prepared } from '../db/prepared.js';
import { issues } from './schema.js';
import type { Queryable } from '../context.js';
import { withMembers } from '../kernel/json-text.js';

/**
 * Adds labels and both directions of dependencies to a page whose issues SQLite wrote as JSON
 * (list-query.ts, `issueListJson`), loaded for the whole page at once: the same four members
 * `withLinksFrom` gives one issue, appended to each issue's JSON text.
 */
export function withLinksJson(db: Queryable, rows: readonly { id: string; json: string }[]): string[] {
  const ids = rows.map((r) => r.id);
  const rel = relationsOf(db, ids);
  const lab = labelIdsOf(db, ids);
  const list = (ids: readonly string[] | undefined) => (ids?.length ? JSON.stringify(ids) : '[]');
  return rows.map(({ id, json }) => {
    const r = rel.get(id);
    return withMembers(json, `"labelIds":${list(lab.get(id))},"blockedBy":${list(r?.blockedBy)},"blocks":${list(r?.blocks)},"openBlockerIds":${list(r?.openBlockerIds)}`);
  });
}

// One issue's links in one statement (every GET, PATCH and checkout answers with them): three
// index lookups aggregated to JSON arrays, instead of the page form's three statements over a
// JSON list of ids, which cost three times as much for a single id.
// Qualified by hand: drizzle writes a single table's column unqualified, and inside the blockers
// subquery a bare "id" would name the joined issue, not the one asked for.
const outerId = sql.raw('"issues"."id"');
/** One issue's links as JSON arrays, for a statement over `issues` (here, and the GET's row read). */
export const linkColumns = {
  labelIds: sql<string>`(SELECT json_group_array(l.label_id) FROM issue_labels l WHERE l.issue_id = ${outerId})`,
  blockedBy: sql<string>`(SELECT json_group_array(json_array(b.blocker_issue_id, bi.status)) FROM issue_blockers b JOIN issues bi ON bi.id = b.blocker_issue_id WHERE b.issue_id = ${outerId})`,
  blocks: sql<string>`(SELECT json_group_array(b.issue_id) FROM issue_blockers b WHERE b.blocker_issue_id = ${outerId})`,
};
export interface LinkColumns {
  labelIds: string;
  blockedBy: string;
  blocks: string;
}
const linksOfOne = (db: Queryable) =>
  prepared(db, 'issues.linksOfOne', (d) => d.select(linkColumns).from(issues).where(eq(issues.id, sql.placeholder('id'))).prepare());

/** An issue inserted in this transaction without labels: nothing links to it yet, so there is nothing to read. */
export function withoutLinks(item: Issue): IssueWithLinks {
  return Object.assign(item, { labelIds: [], blockedBy: [], blocks: [], openBlockerIds: [] });
}

export function withLinksOne(db: Queryable, item: Issue): IssueWithLinks {
  return withLinksFrom(item, linksOfOne(db).get({ id: item.id }));
}

/** The blockers of `linkColumns.blockedBy` (`[id, status]` pairs): all of them, and those not done. */
function blockersFrom(pairsText: string): { blockedBy: string[]; openBlockerIds: string[] } {
  const pairs = JSON.parse(pairsText) as [string, string][];
  return { blockedBy: pairs.map(([id]) => id), openBlockerIds: pairs.filter(([, status]) => status !== 'done').map(([id]) => id) };
}

/** The links of `linkColumns` as read, as the four JSON members `withLinksFrom` assigns. */
export function linkMembersFrom(row: LinkColumns): string {
  // SQLite wrote the label and dependent lists as the JSON arrays the answer holds.
  const b = row.blockedBy === '[]' ? null : blockersFrom(row.blockedBy);
  const list = (ids: string[] | undefined) => (ids ? JSON.stringify(ids) : '[]');
  return `"labelIds":${row.labelIds},"blockedBy":${list(b?.blockedBy)},"blocks":${row.blocks},"openBlockerIds":${list(b?.openBlockerIds)}`;
}

/** The links of `linkColumns` as read, assigned onto the issue. */
export function withLinksFrom(item: Issue, row: LinkColumns | undefined): IssueWithLinks {
  return Object.assign(item, {
    labelIds: row ? (JSON.parse(row.labelIds) as string[]) : [],
    ...(row ? blockersFrom(row.blockedBy) : { blockedBy: [], openBlockerIds: [] }),
    blocks: row ? (JSON.parse(row.blocks) as string[]) : [],
  });
}
