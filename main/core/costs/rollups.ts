import { and, eq, sql } from 'drizzle-orm';
import { costEvents, spendRollups, type SpendScope } from './schema.js';
import type { Queryable } from '../context.js';
import { prepared } from '../db/prepared.js';

const p = sql.placeholder;

/** Sums of one scope and month, as the reports need them. */
export interface SpendTotals {
  micro: number;
  input: number;
  output: number;
  events: number;
}
export const NO_SPEND: SpendTotals = { micro: 0, input: 0, output: 0, events: 0 };

/** The UTC month (`YYYY-MM`) an event counts in: occurred_at is stored as UTC ISO text. */
export const monthOf = (occurredAt: string): string => occurredAt.slice(0, 7);

type EventForRollup = Pick<typeof costEvents.$inferSelect, 'companyId' | 'agentId' | 'projectId' | 'costMicroCents' | 'inputTokens' | 'outputTokens' | 'occurredAt'>;

/**
 * Adds one cost event to its company's, agent's and project's month. Called inside the event's own
 * transaction (costs/service.ts), so the rollup and the events can never disagree.
 */
export function addToRollups(tx: Queryable, e: EventForRollup): void {
  addToRollup(tx).run({
    companyId: e.companyId,
    month: monthOf(e.occurredAt),
    agentId: e.agentId,
    projectId: e.projectId ?? '',
    costMicroCents: e.costMicroCents,
    inputTokens: e.inputTokens,
    outputTokens: e.outputTokens,
  });
}

// The three scopes of an event in one upsert: every cost event runs it, and in the server each
// statement's fixed cost (about 10 µs) weighed more than the work of its row. Built once per
// connection (db/prepared.ts).
const addToRollup = (db: Queryable) =>
  prepared(db, 'rollups.add', (d) => {
    const row = (scope: SpendScope, scopeId: ReturnType<typeof p>) => ({
      companyId: p('companyId'),
      month: p('month'),
      scope,
      scopeId,
      costMicroCents: p('costMicroCents'),
      inputTokens: p('inputTokens'),
      outputTokens: p('outputTokens'),
      events: 1,
    });
    return d
      .insert(spendRollups)
      .values([row('company', p('companyId')), row('agent', p('agentId')), row('project', p('projectId'))])
      .onConflictDoUpdate({
        target: [spendRollups.companyId, spendRollups.month, spendRollups.scope, spendRollups.scopeId],
        set: {
          costMicroCents: sql`${spendRollups.costMicroCents} + excluded.cost_micro_cents`,
          inputTokens: sql`${spendRollups.inputTokens} + excluded.input_tokens`,
          outputTokens: sql`${spendRollups.outputTokens} + excluded.output_tokens`,
          events: sql`${spendRollups.events} + 1`,
        },
      })
      .prepare();
  });

/**
 * Recomputes the rollups from the cost events: of one company (after an import) or of every
 * company. The events are the truth; this is the one place that sums them.
 */
export function rebuildRollups(db: Queryable, companyId?: string): void {
  const only = companyId === undefined ? sql`` : sql` WHERE company_id = ${companyId}`;
  if (companyId === undefined) db.delete(spendRollups).run();
  else db.delete(spendRollups).where(eq(spendRollups.companyId, companyId)).run();
  const sums = sql.raw('sum(cost_micro_cents), sum(input_tokens), sum(output_tokens), count(*)');
  db.run(sql`INSERT INTO spend_rollups (company_id, month, scope, scope_id, cost_micro_cents, input_tokens, output_tokens, events)
    SELECT company_id, substr(occurred_at, 1, 7), 'company', company_id, ${sums} FROM cost_events${only} GROUP BY 1, 2
    UNION ALL SELECT company_id, substr(occurred_at, 1, 7), 'agent', agent_id, ${sums} FROM cost_events${only} GROUP BY 1, 2, 4
    UNION ALL SELECT company_id, substr(occurred_at, 1, 7), 'project', coalesce(project_id, ''), ${sums} FROM cost_events${only} GROUP BY 1, 2, 4`);
}

/**
 * At start: a database from before the rollups (or one whose rollups were lost) gets them built
 * once from its events. Cheap when there is nothing to do: two single-row lookups.
 */
export function ensureRollups(db: Queryable): boolean {
  const hasEvents = db.get<{ n: number } | undefined>(sql`SELECT 1 AS n FROM cost_events LIMIT 1`);
  const hasRollups = db.get<{ n: number } | undefined>(sql`SELECT 1 AS n FROM spend_rollups LIMIT 1`);
  if (!hasEvents || hasRollups) return false;
  db.transaction(() => rebuildRollups(db));
  return true;
}

const columns = {
  scopeId: spendRollups.scopeId,
  micro: spendRollups.costMicroCents,
  input: spendRollups.inputTokens,
  output: spendRollups.outputTokens,
  events: spendRollups.events,
};

// Read by every agent list (each agent's spend this month) and both spend reports: built once per
// connection, as building the query took longer than reading a hundred agents' rows.
const rollupsOfScope = (db: Queryable) =>
  prepared(db, 'rollups.ofScope', (d) =>
    d
      .select(columns)
      .from(spendRollups)
      .where(and(eq(spendRollups.companyId, p('companyId')), eq(spendRollups.month, p('month')), eq(spendRollups.scope, p('scope'))))
      .prepare(),
  );

/** Every row of one scope kind of a company in a month, by scope id. */
export function rollupsOf(db: Queryable, companyId: string, month: string, scope: SpendScope): Map<string, SpendTotals> {
  const rows = rollupsOfScope(db).all({ companyId, month, scope });
  return new Map(rows.map(({ scopeId, ...t }) => [scopeId, t]));
}

/** The month's micro-cents of one company or agent. */
export function rollupMicro(db: Queryable, scope: 'company' | 'agent', scopeId: string, month: string): number {
  return rollupMicroOf(db).get({ scopeId, month, scope })?.micro ?? 0;
}

// Read by every cost event and every run start (the budget checks).
const rollupMicroOf = (db: Queryable) =>
  prepared(db, 'rollups.micro', (d) =>
    d
      .select({ micro: spendRollups.costMicroCents })
      .from(spendRollups)
      .where(and(eq(spendRollups.scopeId, p('scopeId')), eq(spendRollups.month, p('month')), eq(spendRollups.scope, p('scope'))))
      .prepare(),
  );
