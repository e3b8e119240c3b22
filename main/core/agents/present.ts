import { eq } from 'drizzle-orm';
import { agents, type AgentRow } from './schema.js';
import type { Agent } from './contract.js';
import type { Queryable } from '../context.js';
import { monthlySpendByAgent, monthlySpendOfAgent } from '../costs/spend.js';
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

/** Every agent of a company, from two queries whatever the company's size. */
export function presentCompanyAgents(db: Queryable, viewer: Actor, rows: AgentRow[], companyId: string, now: Date): Agent[] {
  const byId = new Map<string, ChainSource>(rows.map((r) => [r.id, r]));
  const spend = monthlySpendByAgent(db, companyId, now);
  return rows.map((r) => present(db, viewer, r, chainOfCommand(r, byId), spend.get(r.id) ?? 0));
}
