import { asc, eq, sql } from 'drizzle-orm';
import { companySpendMicro } from './spend.js';
import { NO_SPEND as none, rollupsOf, type SpendTotals as Totals } from './rollups.js';
import { budgetStatus, microToCents, utilization } from './money.js';
import type { MonthWindow } from './window.js';
import type { AgentCosts, CostSummary, ProjectCosts } from './contract.js';
import { agents } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import type { CompanyRow } from '../companies/schema.js';
import type { Queryable } from '../context.js';
import { prepared } from '../db/prepared.js';

const shape = (t: Totals) => ({
  spentCents: microToCents(Number(t.micro)),
  inputTokens: Number(t.input),
  outputTokens: Number(t.output),
  events: Number(t.events),
});

/**
 * Budgets are not versioned: a past month is compared with today's budget. Spend is exact; the
 * status of a past month is "what today's budget would have said".
 */
export function costSummary(db: Queryable, company: CompanyRow, w: MonthWindow): CostSummary {
  const spent = companySpendMicro(db, company.id, w);
  return {
    month: w.month,
    windowStart: w.start,
    windowEnd: w.end,
    spentCents: microToCents(spent),
    budgetMonthlyCents: company.budgetMonthlyCents,
    utilization: utilization(spent, company.budgetMonthlyCents),
    status: budgetStatus(spent, company.budgetMonthlyCents),
  };
}

// The names (and budgets) the two reports list, in creation order: built once per connection
// (db/prepared.ts), as they run for every agent and project of the company.
const agentsOfReport = (db: Queryable) =>
  prepared(db, 'costs.agents', (d) =>
    d
      .select({ id: agents.id, name: agents.name, budget: agents.budgetMonthlyCents })
      .from(agents)
      .where(eq(agents.companyId, sql.placeholder('companyId')))
      .orderBy(asc(agents.createdAt), sql`rowid`)
      .prepare(),
  );
const projectsOfReport = (db: Queryable) =>
  prepared(db, 'costs.projects', (d) =>
    d
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(eq(projects.companyId, sql.placeholder('companyId')))
      .orderBy(asc(projects.createdAt), sql`rowid`)
      .prepare(),
  );

/** Every agent of the company (terminated and draft included, 0 when idle), most spent first. */
export function costsByAgent(db: Queryable, companyId: string, w: MonthWindow): AgentCosts[] {
  const sums = rollupsOf(db, companyId, w.month, 'agent');
  const rows = agentsOfReport(db).all({ companyId });
  const out = rows.map((a) => {
    const t = sums.get(a.id) ?? none;
    return {
      agentId: a.id,
      name: a.name,
      ...shape(t),
      budgetMonthlyCents: a.budget,
      utilization: utilization(Number(t.micro), a.budget),
      micro: Number(t.micro),
    };
  });
  // Stable sort: equal spend keeps creation order.
  return out.sort((a, b) => b.micro - a.micro).map(({ micro: _micro, ...row }) => row);
}

/**
 * Every project of the company (0 when nothing was spent on it), most spent first, and one row
 * with projectId null for costs assigned to no project, present only when there are such costs.
 */
export function costsByProject(db: Queryable, companyId: string, w: MonthWindow): ProjectCosts[] {
  const byProject = rollupsOf(db, companyId, w.month, 'project');
  const rows = projectsOfReport(db).all({ companyId });
  const out: (ProjectCosts & { micro: number })[] = rows.map((p) => {
    const t = byProject.get(p.id) ?? none;
    return { projectId: p.id, name: p.name, ...shape(t), micro: Number(t.micro) };
  });
  const unassigned = byProject.get('');
  if (unassigned) out.push({ projectId: null, name: 'Unassigned', ...shape(unassigned), micro: Number(unassigned.micro) });
  return out.sort((a, b) => b.micro - a.micro).map(({ micro: _micro, ...row }) => row);
}
