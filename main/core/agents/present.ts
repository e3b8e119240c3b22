import { eq, sql } from 'drizzle-orm';
import { agents, type AgentRow } from './schema.js';
import { prepared } from '../db/prepared.js';
import { jsonObject } from '../db/json-row.js';
import { withMembers } from '../kernel/json-text.js';
import type { Agent } from './contract.js';
import type { Queryable } from '../context.js';
import { monthlySpendOfAgent } from '../costs/spend.js';
import { monthWindow } from '../costs/window.js';
import { spendRollups, MICRO_CENTS_PER_CENT } from '../costs/schema.js';
import type { Actor } from '../kernel/actor.js';
import { configSeenBy } from '../secrets/grants.js';

type ChainSource = Pick<AgentRow, 'id' | 'name' | 'role' | 'reportsTo'>;

/** Managers from the direct one upward. Stops on a cycle, which the service never lets happen. */
export function chainOfCommand(agent: ChainSource, byId: ReadonlyMap<string, ChainSource>) {
  const chain: { id: string; name: string; role: string }[] = [];
  const seen = new Set([agent.id]);
  let next = agent.reportsTo;
  while (next && !seen.has(next)) {
    const manager = byId.get(next);
    if (!manager) break;
    chain.push({ id: manager.id, name: manager.name, role: manager.role });
    seen.add(manager.id);
    next = manager.reportsTo;
  }
  return chain;
}

function present(db: Queryable, viewer: Actor, row: AgentRow, chain: Agent['chainOfCommand'], spent: number): Agent {
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    urlKey: row.urlKey,
    role: row.role,
    title: row.title,
    reportsTo: row.reportsTo,
    capabilities: row.capabilities,
    status: row.status,
    pauseReason: row.pauseReason,
    adapterType: row.adapterType,
    adapterConfig: configSeenBy(db, viewer, row.id, row.companyId, row.adapterConfig),
    budgetMonthlyCents: row.budgetMonthlyCents,
    spentMonthlyCents: spent,
    chainOfCommand: chain,
    terminatedAt: row.terminatedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * One agent with its chain of command (walked with one query per manager; chains are short), as
 * `viewer` may see it: a colleague gets the configuration without values (secrets/grants.ts).
 */
export function presentAgent(db: Queryable, viewer: Actor, row: AgentRow, now: Date): Agent {
  const byId = new Map<string, ChainSource>();
  let next = row.reportsTo;
  while (next && !byId.has(next)) {
    const manager = db
      .select({ id: agents.id, name: agents.name, role: agents.role, reportsTo: agents.reportsTo })
      .from(agents)
      .where(eq(agents.id, next))
      .get();
    if (!manager) break;
    byId.set(manager.id, manager);
    next = manager.reportsTo;
  }
  return present(db, viewer, row, chainOfCommand(row, byId), monthlySpendOfAgent(db, row.id, now));
}

/**
 * `present`'s fields from the agent's row, as SQLite writes them (db/json-row.ts); the list adds the
 * month's spend, and appends what the viewer and the other agents decide. Held to each agent's GET,
 * for every kind of viewer, by test/api/secrets/grants.test.ts.
 */
const AGENT_FIELDS = {
  id: agents.id,
  companyId: agents.companyId,
  name: agents.name,
  urlKey: agents.urlKey,
  role: agents.role,
  title: agents.title,
  reportsTo: agents.reportsTo,
  capabilities: agents.capabilities,
  status: agents.status,
  pauseReason: agents.pauseReason,
  adapterType: agents.adapterType,
  budgetMonthlyCents: agents.budgetMonthlyCents,
  terminatedAt: agents.terminatedAt,
  createdAt: agents.createdAt,
  updatedAt: agents.updatedAt,
};

// Each agent's spend this month from its rollup (costs/rollups.ts), by the rollup's primary key.
// Qualified by hand: drizzle writes a single table's columns unqualified, and both tables have them.
const SPENT_CENTS = sql<number>`coalesce((SELECT r.cost_micro_cents FROM ${spendRollups} r WHERE r.company_id = ${sql.raw('"agents"."company_id"')}
  AND r.month = ${sql.placeholder('month')} AND r.scope = 'agent' AND r.scope_id = ${sql.raw('"agents"."id"')}), 0) / ${sql.raw(`${MICRO_CENTS_PER_CENT}.0`)}`;

// The company's agents in the list's order, each as JSON with its month's spend, and what the chain
// of command and the configuration need beside it (the configuration as JSON text from SQLite: not
// decoded in V8 for a viewer who sees it whole). Built once per connection (db/prepared.ts).
const companyAgentsJson = (db: Queryable) =>
  prepared(db, 'agents.ofCompanyJson', (d) =>
    d
      .select({
        id: agents.id,
        name: agents.name,
        role: agents.role,
        reportsTo: agents.reportsTo,
        // Through json(): stored text that is not JSON fails the statement, never the answer's syntax.
        config: sql<string>`json(${agents.adapterConfig})`,
        json: sql<string>`${jsonObject({ ...AGENT_FIELDS, spentMonthlyCents: SPENT_CENTS })}`,
      })
      .from(agents)
      .where(eq(agents.companyId, sql.placeholder('companyId')))
      .orderBy(agents.createdAt, sql`rowid`)
      .prepare(),
  );

/**
 * Every agent of a company as `viewer` may see it, each as JSON text, from two queries whatever the
 * company's size: the list route's answer (kernel/json-text.ts). An agent's whole row read into V8
 * and written again was most of the list's CPU at 200 agents (issue 17).
 */
export function presentCompanyAgentsJson(db: Queryable, viewer: Actor, companyId: string, now: Date): string[] {
  const rows = companyAgentsJson(db).all({ companyId, month: monthWindow(now).month });
  const byId = new Map<string, ChainSource>(rows.map((r) => [r.id, r]));
  return rows.map((r) => {
    const config = viewer.kind === 'agent' && viewer.agentId !== r.id ? JSON.stringify(configSeenBy(db, viewer, r.id, companyId, JSON.parse(r.config) as Record<string, unknown>)) : r.config;
    return withMembers(r.json, `"adapterConfig":${config},"chainOfCommand":${JSON.stringify(chainOfCommand(r, byId))}`);
  });
}
