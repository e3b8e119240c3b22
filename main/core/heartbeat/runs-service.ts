import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { heartbeatRuns, agentHeartbeatSettings, type HeartbeatRunRow } from './schema.js';
import { readTranscript } from './transcript.js';
import { storedTranscriptPathOrNull } from './transcript-file.js';
import type { HeartbeatEngine } from './engine.js';
import { requireAgent } from '../agents/service.js';
import { assertCompany } from '../companies/service.js';
import { requestWake } from '../issues/wake.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard, assertRecordAccess } from '../kernel/access.js';
import { badRequest, conflict, forbidden, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { whyNotRunnable } from './eligibility.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { microToCents } from '../costs/money.js';
import { MICRO_CENTS_PER_CENT } from '../costs/schema.js';
import { prepared } from '../db/prepared.js';
import { embeddedJson, jsonBoolean, jsonObject } from '../db/json-row.js';
import { jsonPage } from '../kernel/json-text.js';
import { instanceSettings } from './schema.js';
import { readRetentionSettings, writeRetentionSettings } from '../retention/settings.js';
import { enforceRetention } from '../retention/service.js';
import { readLimits, writeLimitSettings, type LimitSettings } from '../limits/settings.js';
import { enforceTranscriptBudgets } from '../limits/transcript-budget.js';

const COST_STATUSES = ['reported', 'priced', 'unpriced'] as const;
type CostStatus = (typeof COST_STATUSES)[number];

/** The usage's cost status; usage recorded before statuses existed was reported by its adapter. */
const costStatusOf = (usage: Record<string, unknown> | null): CostStatus | null => {
  if (!usage) return null;
  return COST_STATUSES.find((s) => s === usage.costStatus) ?? 'reported';
};

export const toRun = ({ costMicroCents, ...row }: HeartbeatRunRow) => ({
  ...row,
  costCents: costMicroCents === null ? null : microToCents(costMicroCents),
  costStatus: costStatusOf(row.usage),
});

const r = heartbeatRuns;
const COST_STATUS_OF_USAGE = sql`CASE WHEN ${r.usage} IS NULL OR json_type(${r.usage}) = 'null' THEN NULL
  WHEN json_extract(${r.usage}, '$.costStatus') IN ('reported', 'priced', 'unpriced') THEN json_extract(${r.usage}, '$.costStatus') ELSE 'reported' END`;
/**
 * `toRun` as SQLite writes it, for the runs list (db/json-row.ts). Held to `toRun`'s output, field
 * by field, by test/unit/heartbeat/run-json.test.ts.
 */
export const RUN_JSON = jsonObject({
  id: r.id,
  companyId: r.companyId,
  agentId: r.agentId,
  status: r.status,
  trigger: r.trigger,
  reasons: embeddedJson(r.reasons),
  taskIssueId: r.taskIssueId,
  adapterType: r.adapterType,
  command: r.command,
  pid: r.pid,
  exitCode: r.exitCode,
  signal: r.signal,
  timedOut: jsonBoolean(r.timedOut),
  usage: embeddedJson(r.usage),
  costCents: sql`${r.costMicroCents} / ${sql.raw(`${MICRO_CENTS_PER_CENT}.0`)}`,
  costStatus: COST_STATUS_OF_USAGE,
  sessionParams: embeddedJson(r.sessionParams),
  errorCode: r.errorCode,
  errorMessage: r.errorMessage,
  errorHint: r.errorHint,
  summary: r.summary,
  rateLimitResetAt: r.rateLimitResetAt,
  transcriptBytes: r.transcriptBytes,
  transcriptPurgedAt: r.transcriptPurgedAt,
  cancelReason: r.cancelReason,
  queuedAt: r.queuedAt,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
});

interface RunListShape {
  agent: boolean;
  issue: boolean;
  status: boolean;
  cursor: boolean;
}

/** One statement per combination of filters, built once per connection (db/prepared.ts). */
function runPageQuery(db: Queryable, shape: RunListShape) {
  const p = sql.placeholder;
  return prepared(db, `runs.page:${shape.agent},${shape.issue},${shape.status},${shape.cursor}`, (d) => {
    const where: SQL[] = [eq(r.companyId, p('companyId'))];
    if (shape.agent) where.push(eq(r.agentId, p('agentId')));
    if (shape.issue) where.push(eq(r.taskIssueId, p('issueId')));
    if (shape.status) where.push(eq(r.status, p('status')));
    if (shape.cursor) where.push(sql`(${r.queuedAt} < ${p('t')} OR (${r.queuedAt} = ${p('t')} AND ${r.id} < ${p('i')}))`);
    return d
      .select({ json: sql<string>`${RUN_JSON}` })
      .from(r)
      .where(and(...where))
      .orderBy(desc(r.queuedAt), desc(r.id))
      .limit(p('limit'))
      .prepare();
  });
}

function requireRun(ctx: CoreContext, actor: Actor, runId: string): HeartbeatRunRow {
  const row = ctx.db.select().from(heartbeatRuns).where(eq(heartbeatRuns.id, runId)).get();
  if (!row) throw notFound('Run');
  assertRecordAccess(actor, row.companyId, 'Run');
  return row;
}

export interface InvokeResult {
  wakeRequestId: string;
  /** The queued run the wake is part of; null while the agent's CLI is rate limited (the wake waits). */
  runId: string | null;
  /** True when the wake joined a run that was already queued. */
  coalesced: boolean;
}

export function createRunsService(ctx: CoreContext, engine: HeartbeatEngine) {
  return {
    /**
     * A manual heartbeat: always runs (no idle skip) unless the agent may not run at all, which
     * is a 409 saying why. Answers with the run it is part of: a new queued run, or the queued run it
     * coalesced into; during a running run that is the follow-up run queued behind it.
     */
    invoke(actor: Actor, agentId: string, issueId?: string): InvokeResult {
      const result = inTransaction(ctx, (tx) => {
        const agent = requireAgent(tx, actor, agentId);
        if (actor.kind === 'agent' && actor.agentId !== agentId) throw forbidden('An agent may invoke only its own heartbeat', 'not_own_agent');
        const now = ctx.clock.now();
        const blocked = whyNotRunnable(tx, agent, now);
        if (blocked) throw conflict('agent_not_runnable', `This heartbeat cannot start: ${blocked}`);
        const at = isoNow(ctx);
        const wakeRequestId = requestWake(tx, at, { companyId: agent.companyId, agentId, reason: 'manual', issueId: issueId ?? null });
        recordActivity(tx, at, actor, { companyId: agent.companyId, action: 'heartbeat.invoked', entityType: 'agent', entityId: agentId, summary: `Heartbeat of "${agent.name}" requested` });
        // The run is decided here, not at the next tick, so the caller can follow what it started.
        const run = engine.queueWakeNow(tx, agent, wakeRequestId, now);
        return { wakeRequestId, runId: run?.runId ?? null, coalesced: run?.coalesced ?? false };
      });
      engine.poke();
      return result;
    },

    list(actor: Actor, companyId: string, q: { agentId?: string | undefined; issueId?: string | undefined; status?: HeartbeatRunRow['status'] | undefined; limit: number; cursor?: string | undefined }) {
      assertCompany(ctx.db, actor, companyId);
      let t: string | undefined;
      let i: string | undefined;
      if (q.cursor) {
        [t, i] = Buffer.from(q.cursor, 'base64url').toString('utf8').split('|');
        if (!t || !i) throw badRequest('invalid_cursor', 'query.cursor: not a cursor from this list');
      }
      const shape = { agent: q.agentId !== undefined, issue: q.issueId !== undefined, status: q.status !== undefined, cursor: t !== undefined };
      const rows = runPageQuery(ctx.db, shape)
        .all({ companyId, agentId: q.agentId, issueId: q.issueId?.toLowerCase(), status: q.status, t, i, limit: q.limit + 1 })
        .map((row) => row.json);
      const items = rows.slice(0, q.limit);
      // The cursor is the last row's sort key, read back from its JSON (one row, not a column more per row).
      const last = rows.length > q.limit ? (JSON.parse(items[items.length - 1]!) as { queuedAt: string; id: string }) : null;
      return jsonPage<{ items: ReturnType<typeof toRun>[]; nextCursor: string | null }>(items, last ? Buffer.from(`${last.queuedAt}|${last.id}`).toString('base64url') : null);
    },

    get: (actor: Actor, runId: string) => toRun(requireRun(ctx, actor, runId)),

    log(actor: Actor, runId: string, offset: number) {
      const run = requireRun(ctx, actor, runId);
      const file = storedTranscriptPathOrNull(ctx.paths.runs, run.id);
      // A run row whose id leads outside runs/ (a forged import of old) has no readable transcript.
      if (!file) throw notFound('Run transcript');
      const page = readTranscript(file, offset);
      const finished = !['queued', 'running'].includes(run.status);
      return { ...page, done: finished && page.nextOffset >= page.size };
    },

    cancel(actor: Actor, runId: string) {
      const run = requireRun(ctx, actor, runId);
      if (actor.kind === 'agent' && actor.agentId !== run.agentId) throw forbidden('An agent may cancel only its own runs', 'not_own_agent');
      if (!['queued', 'running'].includes(run.status)) throw conflict('run_finished', `This run already ended (${run.status})`);
      engine.cancelRun(run.id, actor.kind === 'board' ? 'cancelled by the board' : 'cancelled by the agent');
      return toRun(requireRun(ctx, actor, runId));
    },

    instanceSettings(actor: Actor) {
      assertBoard(actor, 'read instance settings');
      return { maxConcurrentRuns: engine.maxConcurrent(), ...readRetentionSettings(ctx.db), limits: readLimits(ctx.db) };
    },

    putInstanceSettings(
      actor: Actor,
      input: {
        maxConcurrentRuns?: number | undefined;
        transcriptRetentionDays?: number | undefined;
        backupRetentionCount?: number | undefined;
        workspaceRetentionHours?: number | undefined;
        limits?: Partial<Record<keyof LimitSettings, number | undefined>> | undefined;
      },
    ) {
      assertBoard(actor, 'change instance settings');
      // All of it or none, committed (with any commit group open before it) before files are
      // deleted by the new retention or budget: never removed by a setting that was not saved.
      const at = isoNow(ctx);
      const write = (tx: Queryable) => {
        if (input.maxConcurrentRuns !== undefined) {
          tx.insert(instanceSettings)
            .values({ key: 'maxConcurrentRuns', value: input.maxConcurrentRuns, updatedAt: at })
            .onConflictDoUpdate({ target: instanceSettings.key, set: { value: input.maxConcurrentRuns, updatedAt: at } })
            .run();
        }
        return { retention: writeRetentionSettings(tx, at, input), limits: input.limits ? writeLimitSettings(tx, at, input.limits) : false };
      };
      // An empty body writes nothing and opens no transaction.
      const changed = Object.values(input).some((v) => v !== undefined) ? inTransaction(ctx, write) : { retention: false, limits: false };
      if (input.maxConcurrentRuns !== undefined) engine.poke();
      // Shorter retention applies at once, not at the next daily pass (its pass also applies the
      // transcript budgets); a smaller transcript budget alone applies at once too.
      if (changed.retention) enforceRetention(ctx);
      else if (changed.limits) enforceTranscriptBudgets(ctx);
      return this.instanceSettings(actor);
    },

    settings(actor: Actor, agentId: string) {
      requireAgent(ctx.db, actor, agentId);
      const row = ctx.db.select().from(agentHeartbeatSettings).where(eq(agentHeartbeatSettings.agentId, agentId)).get();
      return { intervalSec: row?.intervalSec ?? null, enabled: row?.enabled ?? false, skipWhenIdle: row?.skipWhenIdle ?? true };
    },

    putSettings(actor: Actor, agentId: string, input: { intervalSec?: number | null | undefined; enabled?: boolean | undefined; skipWhenIdle?: boolean | undefined }) {
      assertBoard(actor, 'change heartbeat schedules');
      inTransaction(ctx, (tx) => {
        const agent = requireAgent(tx, actor, agentId);
        const at = isoNow(ctx);
        const current = tx.select().from(agentHeartbeatSettings).where(eq(agentHeartbeatSettings.agentId, agentId)).get();
        const next = {
          intervalSec: input.intervalSec !== undefined ? input.intervalSec : (current?.intervalSec ?? null),
          enabled: input.enabled ?? current?.enabled ?? false,
          skipWhenIdle: input.skipWhenIdle ?? current?.skipWhenIdle ?? true,
        };
        if (next.enabled && !next.intervalSec) throw badRequest('interval_required', 'body.intervalSec: an enabled schedule needs an interval');
        tx.insert(agentHeartbeatSettings)
          .values({ agentId, ...next, updatedAt: at })
          .onConflictDoUpdate({ target: agentHeartbeatSettings.agentId, set: { ...next, updatedAt: at } })
          .run();
        recordActivity(tx, at, actor, { companyId: agent.companyId, action: 'heartbeat.schedule_updated', entityType: 'agent', entityId: agentId, summary: `Heartbeat schedule of "${agent.name}" ${next.enabled ? `every ${next.intervalSec} s` : 'off'}` });
      });
      engine.poke();
      return this.settings(actor, agentId);
    },
  };
}

