import { asc, eq, sql } from 'drizzle-orm';
import { agents, type AgentRow } from './schema.js';
import type { OrgNode } from './contract.js';
import type { Queryable } from '../context.js';
import { prepared } from '../db/prepared.js';

type OrgRow = Pick<AgentRow, 'id' | 'name' | 'urlKey' | 'role' | 'title' | 'status' | 'adapterType' | 'reportsTo'>;

/**
 * The org chart as a forest: agents without a manager (or whose manager is filtered out) are
 * roots, reports sorted by creation time.
 */
export function buildOrgTree(rows: OrgRow[]): OrgNode[] {
  const nodes = new Map<string, OrgNode>(
    rows.map((r) => [
      r.id,
      { id: r.id, name: r.name, urlKey: r.urlKey, role: r.role, title: r.title, status: r.status, adapterType: r.adapterType, reports: [] },
    ]),
  );
  const roots: OrgNode[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const manager = r.reportsTo ? nodes.get(r.reportsTo) : undefined;
    (manager ? manager.reports : roots).push(node);
  }
  return roots;
}

// Only the chart's columns (an agent's whole row decodes its adapter configuration, JSON), in a
// statement built once per connection (db/prepared.ts): the org of 200 agents read whole rows
// through drizzle's per-row mapping for most of its CPU (issue 17).
const orgRows = (db: Queryable) =>
  prepared(db, 'agents.org', (d) =>
    d
      .select({ id: agents.id, name: agents.name, urlKey: agents.urlKey, role: agents.role, title: agents.title, status: agents.status, adapterType: agents.adapterType, reportsTo: agents.reportsTo })
      .from(agents)
      .where(eq(agents.companyId, sql.placeholder('companyId')))
      .orderBy(asc(agents.createdAt), sql`rowid`)
      .prepare(),
  );

export function companyOrg(db: Queryable, companyId: string, includeTerminated: boolean): OrgNode[] {
  const rows = orgRows(db).all({ companyId });
  return buildOrgTree(includeTerminated ? rows : rows.filter((r) => r.status !== 'terminated'));
}
