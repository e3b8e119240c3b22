import { asc, eq, sql } from 'drizzle-orm';
import { agents, type AgentRow } from './schema.js';
import type { OrgNode } from './contract.js';
import type { Queryable } from '../context.js';

/**
 * The org chart as a forest: agents without a manager (or whose manager is filtered out) are
 * roots, reports sorted by creation time.
 */
export function buildOrgTree(rows: AgentRow[]): OrgNode[] {
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

export function companyOrg(db: Queryable, companyId: string, includeTerminated: boolean): OrgNode[] {
  const rows = db
    .select()
    .from(agents)
    .where(eq(agents.companyId, companyId))
    .orderBy(asc(agents.createdAt), sql`rowid`)
    .all();
  return buildOrgTree(includeTerminated ? rows : rows.filter((r) => r.status !== 'terminated'));
}
