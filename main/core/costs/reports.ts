import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { costEvents } from './schema.js';
import { companySpendMicro } from './spend.js';
import { budgetStatus, microToCents, utilization } from './money.js';
import type { MonthWindow } from './window.js';
import type { AgentCosts, CostSummary, ProjectCosts } from './contract.js';
import { agents } from '../agents/schema.js';
import { projects } from '../projects/schema.js';
import type { CompanyRow } from '../companies/schema.js';
import type { Queryable } from '../context.js';

/** Sums per group, in one query: micro-cents, tokens and event count. */
const totals = {
  micro: sql<number>`coalesce(sum(${costEvents.costMicroCents}), 0)`,
  input: sql<number>`coalesce(sum(${costEvents.inputTokens}), 0)`,
  output: sql<number>`coalesce(sum(${costEvents.outputTokens}), 0)`,
  events: sql<number>`count(*)`,
};
type Totals = { micro: number; input: number; output: number; events: number };
const none: Totals = { micro: 0, input: 0, output: 0, events: 0 };

const inWindow = (companyId: string, w: MonthWindow) =>
  and(eq(costEvents.companyId, companyId), gte(costEvents.occurredAt, w.start), lt(costEvents.occurredAt, w.end));

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

/** Every agent of the company (terminated and draft included, 0 when idle), most spent first. */
export function costsByAgent(db: Queryable, companyId: string, w: MonthWindow): AgentCosts[] {
  const sums = new Map(
    db
      .select({ agentId: costEvents.agentId, ...totals })
      .from(costEvents)
      .where(inWindow(companyId, w))
      .groupBy(costEvents.agentId)
      .all()
      .map(({ agentId, ...t }) => [agentId, t]),
  );
  const rows = db
    .select({ id: agents.id, name: agents.name, budget: agents.budgetMonthlyCents })
    .from(agents)
    .where(eq(agents.companyId, companyId))
    .orderBy(asc(agents.createdAt), sql`rowid`)
    .all();
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
  const sums = db
    .select({ projectId: costEvents.projectId, ...totals })
    .from(costEvents)
    .where(inWindow(companyId, w))
    .groupBy(costEvents.projectId)
    .all();
  const byProject = new Map(sums.map(({ projectId, ...t }) => [projectId, t]));
  const rows = db
    .select({ id: projects.id, name: projects.name })
    .from(projects)
    .where(eq(projects.companyId, companyId))
    .orderBy(asc(projects.createdAt), sql`rowid`)
    .all();
  const out: (ProjectCosts & { micro: number })[] = rows.map((p) => {
    const t = byProject.get(p.id) ?? none;
    return { projectId: p.id, name: p.name, ...shape(t), micro: Number(t.micro) };
  });
  const unassigned = byProject.get(null);
  if (unassigned) out.push({ projectId: null, name: 'Unassigned', ...shape(unassigned), micro: Number(unassigned.micro) });
  return out.sort((a, b) => b.micro - a.micro).map(({ micro: _micro, ...row }) => row);
}
