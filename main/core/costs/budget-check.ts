import { eq } from 'drizzle-orm';
import { agents } from '../agents/schema.js';
import { companies } from '../companies/schema.js';
import type { Queryable } from '../context.js';
import { agentSpendMicro, companySpendMicro } from './spend.js';
import { microToCents, reachedPercent, STOP_PERCENT } from './money.js';
import { monthWindow } from './window.js';

export interface BudgetStop {
  scope: 'agent' | 'company';
  /** One human sentence, for the run record and the board. */
  reason: string;
}

/**
 * The hard stop of spec 8, asked by the heartbeat engine before it starts any run: null when the
 * agent may run, else which budget (the agent's own, or its company's) is used up this UTC month.
 *
 * It reads the spend of the current window every time instead of trusting a stored flag, so the
 * stop lifts the moment the board raises a budget (or sets it to 0, no limit) and at the first
 * instant of a new month, without anything having to flip it back.
 *
 * A company stop does not change any agent's status: the company is stopped as a whole. An agent
 * stop normally comes with the agent paused by budget; checking the spend here as well covers a
 * run that would start between a cost event and the pause.
 */
export function budgetStop(db: Queryable, companyId: string, agentId: string, now: Date): BudgetStop | null {
  const w = monthWindow(now);
  const agent = db
    .select({ name: agents.name, companyId: agents.companyId, budget: agents.budgetMonthlyCents })
    .from(agents)
    .where(eq(agents.id, agentId))
    .get();
  if (agent && agent.companyId === companyId && agent.budget > 0) {
    const spent = agentSpendMicro(db, agentId, w);
    if (reachedPercent(spent, agent.budget, STOP_PERCENT)) {
      return {
        scope: 'agent',
        reason: `Agent "${agent.name}" has used its monthly budget (${microToCents(spent)} of ${agent.budget} cents in ${w.month})`,
      };
    }
  }
  const company = db
    .select({ name: companies.name, budget: companies.budgetMonthlyCents })
    .from(companies)
    .where(eq(companies.id, companyId))
    .get();
  if (company && company.budget > 0) {
    const spent = companySpendMicro(db, companyId, w);
    if (reachedPercent(spent, company.budget, STOP_PERCENT)) {
      return {
        scope: 'company',
        reason: `Company "${company.name}" has used its monthly budget (${microToCents(spent)} of ${company.budget} cents in ${w.month})`,
      };
    }
  }
  return null;
}
