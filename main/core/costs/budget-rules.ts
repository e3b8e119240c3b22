import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import { prepared } from '../db/prepared.js';
import { agents, type AgentRow, type AgentStatus } from '../agents/schema.js';
import { companies } from '../companies/schema.js';
import { budgetAlerts } from './schema.js';
import { agentSpendMicro, companySpendMicro } from './spend.js';
import { microToCents, reachedPercent, STOP_PERCENT, WARNING_PERCENT } from './money.js';
import { inWindow, monthWindow, type MonthWindow } from './window.js';
import { newId } from '../kernel/ids.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';

/**
 * The budget rules of spec 8, applied inside the transaction of the change that moves spend or a
 * budget, so a rejected or rolled-back change leaves no alert, pause or activity behind:
 * - 80% of an agent's or the company's budget: one `budget.warning` per scope and UTC month;
 * - 100% of an agent's budget: the agent is paused with pauseReason 'budget', its runs cancelled;
 * - 100% of the company's budget: `company.budget_exhausted`, every agent's runs cancelled, and
 *   budgetStop() refuses new runs; no agent status changes, so raising the budget lifts it at once.
 * A budget pause holds only while spend >= budget: raising the budget, removing it (0) or a new
 * month lifts it (`agent.budget_resumed`).
 */

/** Runs to cancel once the transaction has committed (cancelling is not transactional). */
export interface RunCancellation {
  agentId: string;
  reason: 'budget' | 'company_budget';
}

/** Statuses a budget pause applies to; paused, draft and terminated agents are left as they are. */
const ACTIVE: readonly AgentStatus[] = ['idle', 'running', 'error'];

type Scope = { companyId: string; agentId: string | null; name: string };

const scopeKey = (s: Scope): string => (s.agentId ? `agent:${s.agentId}` : `company:${s.companyId}`);
const label = (s: Scope): string => (s.agentId ? `Agent "${s.name}"` : `Company "${s.name}"`);
const amounts = (spent: number, budget: number, w: MonthWindow): string => `${microToCents(spent)} of ${budget} cents in ${w.month}`;

/** Inserts the alert row unless the scope already crossed this threshold in this window; true when new. */
function recordAlert(tx: Queryable, at: string, w: MonthWindow, s: Scope, threshold: number, spent: number, budget: number): boolean {
  const result = tx
    .insert(budgetAlerts)
    .values({
      id: newId(),
      companyId: s.companyId,
      agentId: s.agentId,
      scopeKey: scopeKey(s),
      windowStart: w.start,
      threshold,
      spentMicroCents: spent,
      budgetCents: budget,
      createdAt: at,
    })
    .onConflictDoNothing()
    .run();
  return result.changes === 1;
}

function details(w: MonthWindow, threshold: number, spent: number, budget: number) {
  return { month: w.month, threshold, spentCents: microToCents(spent), budgetMonthlyCents: budget };
}

/** The soft alert: once per scope and window, however many events land above 80%. */
function warnOnce(tx: Queryable, at: string, w: MonthWindow, s: Scope, spent: number, budget: number): void {
  if (!reachedPercent(spent, budget, WARNING_PERCENT)) return;
  if (!recordAlert(tx, at, w, s, WARNING_PERCENT, spent, budget)) return;
  recordActivity(tx, at, 'system', {
    companyId: s.companyId,
    action: 'budget.warning',
    entityType: s.agentId ? 'agent' : 'company',
    entityId: s.agentId ?? s.companyId,
    summary: `${label(s)} reached ${WARNING_PERCENT}% of its monthly budget (${amounts(spent, budget, w)}): focus on critical work`,
    details: { scope: s.agentId ? 'agent' : 'company', ...details(w, WARNING_PERCENT, spent, budget) },
  });
}

/** What the budget rules read of an agent. */
export type BudgetAgent = Pick<AgentRow, 'id' | 'companyId' | 'name' | 'status' | 'budgetMonthlyCents'>;

function pauseForBudget(tx: Queryable, at: string, w: MonthWindow, agent: BudgetAgent, spent: number): RunCancellation {
  const s: Scope = { companyId: agent.companyId, agentId: agent.id, name: agent.name };
  recordAlert(tx, at, w, s, STOP_PERCENT, spent, agent.budgetMonthlyCents);
  tx.update(agents).set({ status: 'paused', pauseReason: 'budget', updatedAt: at }).where(eq(agents.id, agent.id)).run();
  recordActivity(tx, at, 'system', {
    companyId: agent.companyId,
    action: 'agent.budget_paused',
    entityType: 'agent',
    entityId: agent.id,
    summary: `Agent "${agent.name}" paused: monthly budget used (${amounts(spent, agent.budgetMonthlyCents, w)})`,
    details: details(w, STOP_PERCENT, spent, agent.budgetMonthlyCents),
  });
  return { agentId: agent.id, reason: 'budget' };
}

function resumeFromBudget(tx: Queryable, at: string, w: MonthWindow, agent: AgentRow, spent: number): void {
  tx.update(agents).set({ status: 'idle', pauseReason: null, updatedAt: at }).where(eq(agents.id, agent.id)).run();
  const why = agent.budgetMonthlyCents === 0 ? 'it has no budget limit now' : `its spend is below its budget (${amounts(spent, agent.budgetMonthlyCents, w)})`;
  recordActivity(tx, at, 'system', {
    companyId: agent.companyId,
    action: 'agent.budget_resumed',
    entityType: 'agent',
    entityId: agent.id,
    summary: `Agent "${agent.name}" resumed: ${why}`,
    details: { month: w.month, spentCents: microToCents(spent), budgetMonthlyCents: agent.budgetMonthlyCents },
  });
}

// Read by every cost event and agent read: built once per connection (db/prepared.ts).
const p = sql.placeholder;
const pausedByBudget = [eq(agents.status, 'paused'), eq(agents.pauseReason, 'budget')];
const budgetPausedAgents = (db: Queryable) =>
  prepared(db, 'budget.pausedAgents', (d) => d.select().from(agents).where(and(eq(agents.companyId, p('companyId')), ...pausedByBudget)).prepare());
const budgetPausedAgent = (db: Queryable) =>
  prepared(db, 'budget.pausedAgent', (d) => d.select().from(agents).where(and(eq(agents.companyId, p('companyId')), eq(agents.id, p('agentId')), ...pausedByBudget)).prepare());
// Only the columns the rules use: the whole agent row would decode its adapter configuration
// (JSON) on every cost event.
const agentById = (db: Queryable) =>
  prepared(db, 'budget.agentById', (d) =>
    d
      .select({ id: agents.id, companyId: agents.companyId, name: agents.name, status: agents.status, budgetMonthlyCents: agents.budgetMonthlyCents })
      .from(agents)
      .where(eq(agents.id, p('id')))
      .prepare(),
  );
const companyById = (db: Queryable) =>
  prepared(db, 'budget.companyById', (d) =>
    d.select({ id: companies.id, name: companies.name, budgetMonthlyCents: companies.budgetMonthlyCents }).from(companies).where(eq(companies.id, p('id'))).prepare(),
  );

/** Agents of the company paused by budget whose budget no longer holds them (new month, raised or removed). */
function liftable(db: Queryable, w: MonthWindow, companyId: string, agentId?: string): { agent: AgentRow; spent: number }[] {
  return (agentId ? budgetPausedAgent(db).all({ companyId, agentId }) : budgetPausedAgents(db).all({ companyId }))
    .map((agent) => ({ agent, spent: agentSpendMicro(db, agent.id, w) }))
    .filter(({ agent, spent }) => !reachedPercent(spent, agent.budgetMonthlyCents, STOP_PERCENT));
}

/** Resumes the agents whose budget pause no longer holds; answers their ids. */
export function liftBudgetPauses(tx: Queryable, at: string, now: Date, companyId: string, agentId?: string): string[] {
  const w = monthWindow(now);
  return liftable(tx, w, companyId, agentId).map(({ agent, spent }) => {
    resumeFromBudget(tx, at, w, agent, spent);
    return agent.id;
  });
}

/**
 * The month boundary, applied lazily: when a company's agents are read (or a cost event arrives),
 * budget pauses that a new month has lifted are resumed first. It writes only when there is
 * something to lift, so ordinary reads stay reads. The heartbeat engine calls it on its tick too.
 */
export function settleBudgetPauses(ctx: Pick<CoreContext, 'db' | 'events' | 'clock'>, companyId: string, agentId?: string): void {
  if (liftable(ctx.db, monthWindow(ctx.clock.now()), companyId, agentId).length === 0) return;
  inTransaction(ctx, (tx) => liftBudgetPauses(tx, isoNow(ctx), ctx.clock.now(), companyId, agentId));
}

/** One agent as read: a budget pause that a new month (or a raised budget) lifted is resumed first. */
export function settleBudgetPause(ctx: Pick<CoreContext, 'db' | 'events' | 'clock'>, row: AgentRow): AgentRow {
  if (row.status !== 'paused' || row.pauseReason !== 'budget') return row;
  settleBudgetPauses(ctx, row.companyId, row.id);
  return ctx.db.select().from(agents).where(eq(agents.id, row.id)).get() ?? row;
}

/** The company has used its budget: record it and stop every agent's runs (statuses untouched). */
function exhaustCompany(tx: Queryable, at: string, w: MonthWindow, s: Scope, spent: number, budget: number): RunCancellation[] {
  recordAlert(tx, at, w, s, STOP_PERCENT, spent, budget);
  recordActivity(tx, at, 'system', {
    companyId: s.companyId,
    action: 'company.budget_exhausted',
    entityType: 'company',
    entityId: s.companyId,
    summary: `${label(s)} used its monthly budget (${amounts(spent, budget, w)}): no heartbeat starts until the budget is raised or the month ends`,
    details: details(w, STOP_PERCENT, spent, budget),
  });
  return tx
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.companyId, s.companyId), notInArray(agents.status, ['terminated', 'draft'])))
    .orderBy(asc(agents.createdAt))
    .all()
    .map((a) => ({ agentId: a.id, reason: 'company_budget' as const }));
}

/**
 * What the cost event's transaction already read before the rules run: its agent, checked to be of
 * the company. Nothing in between writes to agents, so the rules use it instead of reading it
 * again. They read it afresh if they resume it first; that cannot change an outcome today (an
 * agent resumes only below its budget, and only at or above it does its status matter), but keeps
 * the rules reading the agent as it is should they come to depend on its status elsewhere.
 */
export interface CostEventFacts {
  agent: BudgetAgent;
  /** The event's company as its transaction read it (nothing in between writes to companies). */
  company?: BudgetCompany;
}

/** What the budget rules read of a company. */
export type BudgetCompany = { id: string; name: string; budgetMonthlyCents: number };

/** After one cost event, inside its transaction. Returns the runs to cancel after commit. */
export function applyBudgetRules(
  tx: Queryable,
  at: string,
  now: Date,
  event: { companyId: string; agentId: string; costMicroCents: number; occurredAt: string },
  facts?: CostEventFacts,
): RunCancellation[] {
  const w = monthWindow(now);
  const out: RunCancellation[] = [];
  const resumed = liftBudgetPauses(tx, at, now, event.companyId);
  // An event dated in another month (late report, or a few minutes ahead) does not move this month.
  const added = inWindow(event.occurredAt, w) ? event.costMicroCents : 0;

  const agent = facts && !resumed.includes(event.agentId) ? facts.agent : agentById(tx).get({ id: event.agentId });
  if (agent && agent.budgetMonthlyCents > 0) {
    const spent = agentSpendMicro(tx, agent.id, w);
    warnOnce(tx, at, w, { companyId: agent.companyId, agentId: agent.id, name: agent.name }, spent, agent.budgetMonthlyCents);
    if (reachedPercent(spent, agent.budgetMonthlyCents, STOP_PERCENT) && ACTIVE.includes(agent.status)) {
      out.push(pauseForBudget(tx, at, w, agent, spent));
    }
  }

  const company = facts?.company ?? companyById(tx).get({ id: event.companyId });
  if (company && company.budgetMonthlyCents > 0) {
    const s: Scope = { companyId: company.id, agentId: null, name: company.name };
    const spent = companySpendMicro(tx, company.id, w);
    warnOnce(tx, at, w, s, spent, company.budgetMonthlyCents);
    // Only the event that crosses the line stops the company; later ones find it stopped already.
    const crossed = reachedPercent(spent, company.budgetMonthlyCents, STOP_PERCENT) && !reachedPercent(spent - added, company.budgetMonthlyCents, STOP_PERCENT);
    if (crossed) out.push(...exhaustCompany(tx, at, w, s, spent, company.budgetMonthlyCents));
  }
  return out;
}

/**
 * After the board changed an agent's budget (inside that transaction): a budget at or below the
 * month's spend pauses an active agent, one above it (or 0, no limit) lifts a budget pause.
 */
export function reconcileAgentBudget(tx: Queryable, at: string, now: Date, agentId: string): RunCancellation | null {
  const w = monthWindow(now);
  const agent = tx.select().from(agents).where(eq(agents.id, agentId)).get();
  if (!agent) return null;
  const spent = agentSpendMicro(tx, agentId, w);
  if (reachedPercent(spent, agent.budgetMonthlyCents, STOP_PERCENT)) {
    return ACTIVE.includes(agent.status) ? pauseForBudget(tx, at, w, agent, spent) : null;
  }
  if (agent.status === 'paused' && agent.pauseReason === 'budget') resumeFromBudget(tx, at, w, agent, spent);
  return null;
}

/** After the board changed the company's budget: lowering it to the month's spend or below stops the company. */
export function reconcileCompanyBudget(tx: Queryable, at: string, now: Date, companyId: string, previousBudget: number): RunCancellation[] {
  const w = monthWindow(now);
  const company = tx.select().from(companies).where(eq(companies.id, companyId)).get();
  if (!company) return [];
  const spent = companySpendMicro(tx, companyId, w);
  const was = reachedPercent(spent, previousBudget, STOP_PERCENT);
  const is = reachedPercent(spent, company.budgetMonthlyCents, STOP_PERCENT);
  if (was || !is) return [];
  return exhaustCompany(tx, at, w, { companyId, agentId: null, name: company.name }, spent, company.budgetMonthlyCents);
}

/** Asks the heartbeat engine to cancel runs, after commit. A failure there never undoes the committed stop. */
export function cancelRuns(ctx: Pick<CoreContext, 'runs' | 'logger'>, list: readonly RunCancellation[]): void {
  const seen = new Set<string>();
  for (const { agentId, reason } of list) {
    if (seen.has(agentId)) continue;
    seen.add(agentId);
    try {
      ctx.runs.cancelRunsOf(agentId, reason);
    } catch (err) {
      ctx.logger.error('cancelling runs after a budget stop failed', { agentId, reason, message: err instanceof Error ? err.message : String(err) });
    }
  }
}
