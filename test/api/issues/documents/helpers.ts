import { eq, sql } from 'drizzle-orm';
import { issues } from '../../../../main/core/issues/schema.js';
import { companies } from '../../../../main/core/companies/schema.js';
import { newId } from '../../../../main/core/kernel/ids.js';
import { createAgent, createAgentKey, createCompany, startCore, type TestCore } from '../../../helpers/core.js';
import { tickingClock } from '../../agents/helpers.js';

export { expectError, problemPaths, MISSING_ID } from '../../agents/helpers.js';

export interface IssueRef {
  id: string;
  identifier: string;
}

/**
 * Inserts an issue straight into the database, numbered from the company counter the way the
 * issues service numbers them, so issues created later through the API never collide with it.
 */
export function insertIssue(t: TestCore, companyId: string, values: Partial<typeof issues.$inferInsert> = {}): IssueRef {
  const { db } = t.core.services.ctx;
  const company = db
    .update(companies)
    .set({ issueCounter: sql`${companies.issueCounter} + 1` })
    .where(eq(companies.id, companyId))
    .returning()
    .get()!;
  const at = new Date().toISOString();
  const row = {
    id: newId(),
    companyId,
    number: company.issueCounter,
    identifier: `${company.issuePrefix}-${company.issueCounter}`,
    title: 'Write the launch plan',
    status: 'todo' as const,
    priority: 'medium' as const,
    priorityRank: 2,
    createdByType: 'board' as const,
    createdAt: at,
    updatedAt: at,
    lastActivityAt: at,
    ...values,
  };
  db.insert(issues).values(row).run();
  return { id: row.id, identifier: row.identifier };
}

export interface World {
  t: TestCore;
  companyId: string;
  agentId: string;
  /** Agent key of `agentId`, a member of the company. */
  agentKey: string;
  issue: IssueRef;
  /** An agent key of another company, which must see nothing here. */
  foreignKey: string;
  foreignIssue: IssueRef;
}

/** A core with company Acme (one agent, one issue ACME-1) and company Other (one agent, one issue). */
export async function startWorld(): Promise<World> {
  // Wakes stay rows to assert on: no heartbeat starts at once and writes while a test compares snapshots.
  const t = await startCore({ clock: tickingClock(), heartbeats: false });
  const companyId = await createCompany(t, 'Acme');
  const agent = await createAgent(t, companyId);
  const agentKey = await createAgentKey(t, agent.id);
  const otherId = await createCompany(t, 'Other');
  const foreignKey = await createAgentKey(t, (await createAgent(t, otherId, { name: 'Zed' })).id);
  return { t, companyId, agentId: agent.id, agentKey, issue: insertIssue(t, companyId), foreignKey, foreignIssue: insertIssue(t, otherId) };
}

/** Row count of one table, read straight from SQLite. */
export function count(t: TestCore, table: string, where = '1 = 1', ...params: unknown[]): number {
  return (t.core.database.sqlite.prepare(`SELECT count(*) AS n FROM "${table}" WHERE ${where}`).get(...params) as { n: number }).n;
}

export const docBody = (over: Record<string, unknown> = {}) => ({ title: 'Plan', format: 'markdown', body: '# Plan\n\nShip it.', ...over });

/** Creates document `key` on the issue and returns it. */
export async function putDoc(t: TestCore, issueId: string, key = 'plan', over: Record<string, unknown> = {}, token?: string): Promise<any> {
  const res = await t.api('PUT', `/api/issues/${issueId}/documents/${key}`, { body: docBody(over), ...(token ? { token } : {}) });
  if (res.status !== 200 && res.status !== 201) throw new Error(`put document: ${res.status} ${res.text}`);
  return res.body;
}
