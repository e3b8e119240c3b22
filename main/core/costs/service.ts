import { eq, sql } from 'drizzle-orm';
import { prepared } from '../db/prepared.js';
import { costEvents } from './schema.js';
import type { AgentCosts, CostEvent, CostSummary, CreateCostEventInput, ProjectCosts } from './contract.js';
import { centsToMicro, microToCents } from './money.js';
import { monthWindow, windowOfMonth, type MonthWindow } from './window.js';
import { costSummary, costsByAgent, costsByProject } from './reports.js';
import { addToRollups } from './rollups.js';
import { applyBudgetRules, cancelRuns } from './budget-rules.js';
import { agents } from '../agents/schema.js';
import { issues } from '../issues/schema.js';
import { projects } from '../projects/schema.js';
import { IDENTIFIER, isUuid } from '../issues/lookup.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { badRequest, forbidden, notFound } from '../kernel/errors.js';
import { assertCompanyAccess } from '../kernel/access.js';
import { companies } from '../companies/schema.js';
import { recordActivity } from '../activity/service.js';
import { requireCompany, assertCompany } from '../companies/service.js';
import { afterCommit, inTransaction, type CoreContext, type Queryable, type TransactionOptions } from '../context.js';

/** Clocks drift between the agent's machine and ours; further ahead than this is a mistake. */
export const MAX_FUTURE_MS = 5 * 60 * 1000;

function invalid(field: string, code: string, message: string) {
  return badRequest(code, `body.${field}: ${message}`, { problems: [{ location: 'body', path: `body.${field}`, message }] });
}

type CostEventRow = typeof costEvents.$inferSelect;

// Named field by field: a rest-and-spread copy of the row was 1.5% of a cost event's CPU (issue 17).
export function toCostEvent(row: CostEventRow): CostEvent {
  return {
    id: row.id,
    companyId: row.companyId,
    agentId: row.agentId,
    provider: row.provider,
    model: row.model,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    costCents: microToCents(row.costMicroCents),
    runId: row.runId,
    issueId: row.issueId,
    projectId: row.projectId,
    occurredAt: row.occurredAt,
    createdAt: row.createdAt,
  };
}

/** The issue by UUID or identifier; missing and foreign issues get the same 400. */
// Every cost event runs these: built once per connection (db/prepared.ts), every column bound.
const p = sql.placeholder;
// The reporting agent with what the budget rules read of it (budget-rules.ts, CostEventFacts).
const reportingAgent = (db: Queryable) =>
  prepared(db, 'costs.agent', (d) =>
    d
      .select({ id: agents.id, companyId: agents.companyId, name: agents.name, status: agents.status, budgetMonthlyCents: agents.budgetMonthlyCents })
      .from(agents)
      .where(eq(agents.id, p('id')))
      .prepare(),
  );
const COST_EVENT_COLUMNS = ['id', 'companyId', 'agentId', 'provider', 'model', 'inputTokens', 'outputTokens', 'costMicroCents', 'runId', 'issueId', 'projectId', 'occurredAt', 'createdAt'] as const;
const insertCostEvent = (db: Queryable) =>
  prepared(db, 'costs.insert', (d) =>
    d
      .insert(costEvents)
      .values(Object.fromEntries(COST_EVENT_COLUMNS.map((c) => [c, p(c)])) as unknown as typeof costEvents.$inferInsert)
      .returning()
      .prepare(),
  );

// The event's company, with what the budget rules read of it (CostEventFacts): one read serves
// the 404 and the rules, where the company was read twice.
const budgetCompany = (db: Queryable) =>
  prepared(db, 'costs.company', (d) =>
    d.select({ id: companies.id, name: companies.name, budgetMonthlyCents: companies.budgetMonthlyCents }).from(companies).where(eq(companies.id, p('id'))).prepare(),
  );

function issueOfCompany(db: Queryable, companyId: string, ref: string) {
  const key = ref.trim();
  const where = isUuid(key) ? eq(issues.id, key.toLowerCase()) : IDENTIFIER.test(key.toUpperCase()) ? eq(issues.identifier, key.toUpperCase()) : null;
  const row = where ? db.select({ id: issues.id, companyId: issues.companyId, projectId: issues.projectId }).from(issues).where(where).get() : undefined;
  if (!row || row.companyId !== companyId) throw invalid('issueId', 'invalid_issue', 'must be an issue of this company');
  return row;
}

function assertProjectOfCompany(db: Queryable, companyId: string, projectId: string): void {
  const row = db.select({ companyId: projects.companyId }).from(projects).where(eq(projects.id, projectId)).get();
  if (!row || row.companyId !== companyId) throw invalid('projectId', 'invalid_project', 'must be a project of this company');
}

/**
 * Cost events (spec 2.7, 4.5). Each event is one IMMEDIATE transaction that inserts it, adds it to
 * the month's spend rollups, writes its activity record and applies the budget rules against them,
 * so concurrent reports serialize and none is lost or counted twice.
 */
export function createCostsService(ctx: CoreContext) {
  const windowFor = (month: string | undefined): MonthWindow => (month ? windowOfMonth(month) : monthWindow(ctx.clock.now()));

  /** Reports read in one transaction, so the rows of a breakdown come from the same moment. */
  const snapshot = <T>(fn: (db: Queryable) => T): T => ctx.db.transaction((tx) => fn(tx), { behavior: 'deferred' });

  return {
    /**
     * `options.group`: from the API route only, which answers in the same turn; the heartbeat
     * engine's cost of a finished run commits before it goes on (context.ts, group commit).
     */
    record(actor: Actor, companyId: string, input: CreateCostEventInput, options: TransactionOptions = {}): CostEvent {
      return inTransaction(ctx, (tx) => {
        assertCompanyAccess(actor, companyId);
        const company = budgetCompany(tx).get({ id: companyId });
        if (!company) throw notFound('Company');
        if (actor.kind === 'agent' && actor.agentId !== input.agentId) {
          throw forbidden('An agent may report costs only for itself', 'not_own_agent');
        }
        const agent = reportingAgent(tx).get({ id: input.agentId });
        if (!agent || agent.companyId !== companyId) throw invalid('agentId', 'invalid_agent', 'must be an agent of this company');

        const now = ctx.clock.now();
        const at = now.toISOString();
        const occurred = input.occurredAt ? new Date(input.occurredAt) : now;
        if (occurred.getTime() > now.getTime() + MAX_FUTURE_MS) {
          throw invalid('occurredAt', 'occurred_at_in_future', 'must not be more than 5 minutes in the future');
        }

        if (input.projectId) assertProjectOfCompany(tx, companyId, input.projectId);
        let projectId = input.projectId ?? null;
        let issueId: string | null = null;
        if (input.issueId) {
          const issue = issueOfCompany(tx, companyId, input.issueId);
          issueId = issue.id;
          if (projectId && issue.projectId && projectId !== issue.projectId) {
            throw invalid('projectId', 'project_mismatch', 'must be the project of the issue (or left out)');
          }
          projectId ??= issue.projectId;
        }

        // A run token names its run; a cost cannot be booked on a different run with it.
        if (actor.kind === 'agent' && actor.runId && input.runId && input.runId !== actor.runId) {
          throw forbidden('A run may report costs only for itself', 'not_own_run');
        }
        const runId = input.runId ?? (actor.kind === 'agent' ? actor.runId : null) ?? null;

        const row = insertCostEvent(tx).get({
          id: newId(),
          companyId,
          agentId: input.agentId,
          provider: input.provider,
          model: input.model,
          inputTokens: input.inputTokens,
          outputTokens: input.outputTokens,
          costMicroCents: centsToMicro(input.costCents),
          runId,
          issueId,
          projectId,
          occurredAt: occurred.toISOString(),
          createdAt: at,
        } satisfies Record<(typeof COST_EVENT_COLUMNS)[number], unknown>)!;
        addToRollups(tx, row);
        recordActivity(tx, at, actor, {
          companyId,
          action: 'cost.recorded',
          entityType: 'cost_event',
          entityId: row.id,
          summary: `Agent "${agent.name}" reported ${microToCents(row.costMicroCents)} cents (${row.provider}/${row.model}, ${row.inputTokens} in / ${row.outputTokens} out tokens)`,
          details: { agentId: row.agentId, costCents: microToCents(row.costMicroCents), occurredAt: row.occurredAt },
        });
        const cancellations = applyBudgetRules(tx, at, now, row, { agent, company });
        if (cancellations.length > 0) afterCommit(tx, () => cancelRuns(ctx, cancellations));
        return toCostEvent(row);
      }, options);
    },

    summary(actor: Actor, companyId: string, month?: string): CostSummary {
      return snapshot((db) => costSummary(db, requireCompany(db, actor, companyId), windowFor(month)));
    },

    byAgent(actor: Actor, companyId: string, month?: string): AgentCosts[] {
      return snapshot((db) => {
        assertCompany(db, actor, companyId);
        return costsByAgent(db, companyId, windowFor(month));
      });
    },

    byProject(actor: Actor, companyId: string, month?: string): ProjectCosts[] {
      return snapshot((db) => {
        assertCompany(db, actor, companyId);
        return costsByProject(db, companyId, windowFor(month));
      });
    },
  };
}

export type CostsService = ReturnType<typeof createCostsService>;
