import { and, asc, desc, eq, inArray, isNotNull, or, isNull, sql } from 'drizzle-orm';
import { heartbeatRuns, agentHeartbeatSettings, instanceSettings, type HeartbeatRunRow } from './schema.js';
import { agents } from '../agents/schema.js';
import { wakeRequests, type WakeReason, type WakeRequestRow } from '../issues/schema.js';
import { requestWake } from '../issues/wake.js';
import { prepared } from '../db/prepared.js';
import { agentById, hasWork, rateLimitedUntil, whyNotRunnable } from './eligibility.js';
import type { AgentRow } from '../agents/schema.js';
import { executeRun, finishRun, type RunDeps } from './run-execution.js';
import { recoverRuns } from './recovery.js';
import { settleBudgetPauses } from '../costs/budget-rules.js';
import { newId } from '../kernel/ids.js';
import { recordActivity } from '../activity/service.js';
import { flushCommits, inTransaction, type CoreContext, type Tx } from '../context.js';
import type { RunLookup } from './run-lookup.js';

export const DEFAULT_MAX_CONCURRENT_RUNS = 4;
const IDLE_SKIP = 'nothing to do';
const TRIGGER_PRIORITY: WakeReason[] = ['manual', 'mention', 'assignment', 'interaction_accepted', 'approval_decision', 'schedule'];

/**
 * The heartbeat engine. Wakes are stored rows; each tick (and each new wake) turns an agent's
 * pending wakes into at most one run (coalescing), skips wakes of agents that may not run (with the
 * reason), and starts queued runs up to the global cap, oldest first, one per agent.
 */
export class HeartbeatEngine implements RunLookup {
  private readonly active = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private ticking = false;
  private again = false;
  private unsubscribeWakes: (() => void) | undefined;

  constructor(
    private readonly ctx: CoreContext,
    private readonly deps: Omit<RunDeps, 'ctx'>,
    private readonly tickMs = 1000,
  ) {}

  /** Recovers what a previous process left, then ticks. */
  start(): void {
    recoverRuns(this.ctx);
    // Every committed wake (invoke, assignment, mention, unblock, approval...) starts its run now.
    this.unsubscribeWakes = this.ctx.wakes.subscribe(() => this.poke());
    this.timer = setInterval(() => this.poke(), this.tickMs);
    this.timer.unref();
    this.poke();
  }

  /** Cancels running heartbeats and waits for them to settle (their rows end `cancelled`). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribeWakes?.();
    clearInterval(this.timer);
    for (const [id] of this.active) this.cancelRun(id, 'shutdown');
    await Promise.allSettled([...this.active.values()].map((a) => a.done));
  }

  isActive(runId: string): boolean {
    if (this.active.has(runId)) return true;
    const row = this.ctx.db.select({ status: heartbeatRuns.status }).from(heartbeatRuns).where(eq(heartbeatRuns.id, runId)).get();
    return row?.status === 'queued' || row?.status === 'running';
  }

  activeRunAgent(runId: string): string | null {
    // Asked on every checkout and release that carries the run header: prepared once (issue 17).
    const row = prepared(this.ctx.db, 'engine.runAgent', (d) =>
      d.select({ agentId: heartbeatRuns.agentId, status: heartbeatRuns.status }).from(heartbeatRuns).where(eq(heartbeatRuns.id, sql.placeholder('runId'))).prepare(),
    ).get({ runId });
    return row && (row.status === 'queued' || row.status === 'running') ? row.agentId : null;
  }

  cancelRunsOf(agentId: string, reason: string): void {
    const rows = this.ctx.db
      .select({ id: heartbeatRuns.id })
      .from(heartbeatRuns)
      .where(and(eq(heartbeatRuns.agentId, agentId), inArray(heartbeatRuns.status, ['queued', 'running'])))
      .all();
    for (const r of rows) this.cancelRun(r.id, reason);
  }

  /** Kills a running run's process tree (its adapter sees the abort), or drops a queued one. */
  cancelRun(runId: string, reason: string): boolean {
    const running = this.active.get(runId);
    // The reason is on disk before the process is killed: commit any open group first, so these
    // writes commit on their own (context.ts, group commit).
    flushCommits(this.ctx.db);
    this.ctx.db.update(heartbeatRuns).set({ cancelReason: reason }).where(and(eq(heartbeatRuns.id, runId), isNull(heartbeatRuns.cancelReason))).run();
    if (running) {
      running.abort.abort(reason);
      return true;
    }
    const changed = this.ctx.db
      .update(heartbeatRuns)
      .set({ status: 'cancelled', finishedAt: this.ctx.clock.now().toISOString() })
      .where(and(eq(heartbeatRuns.id, runId), eq(heartbeatRuns.status, 'queued')))
      .run();
    return changed.changes > 0;
  }

  maxConcurrent(): number {
    const row = this.ctx.db.select().from(instanceSettings).where(eq(instanceSettings.key, 'maxConcurrentRuns')).get();
    return typeof row?.value === 'number' && row.value > 0 ? row.value : DEFAULT_MAX_CONCURRENT_RUNS;
  }

  /** Runs a tick soon; ticks never overlap, and a poke during one runs another right after. */
  poke(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    setImmediate(() => {
      try {
        this.tick();
      } catch (err) {
        this.ctx.logger.error('heartbeat tick failed', { message: err instanceof Error ? err.message : String(err) });
      } finally {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      }
    });
  }

  private tick(): void {
    const now = this.ctx.clock.now();
    // A new month lifts budget pauses; settle them before deciding who may run.
    const budgetPaused = this.ctx.db.selectDistinct({ companyId: agents.companyId }).from(agents).where(eq(agents.pauseReason, 'budget')).all();
    for (const { companyId } of budgetPaused) settleBudgetPauses(this.ctx, companyId);
    this.schedule(now);
    this.turnWakesIntoRuns(now);
    this.startQueued(now);
  }

  /** Due schedules become wakes; with nothing to do (and skipWhenIdle) they are skipped at once. */
  private schedule(now: Date): void {
    const due = this.ctx.db
      .select()
      .from(agentHeartbeatSettings)
      .where(and(eq(agentHeartbeatSettings.enabled, true), isNotNull(agentHeartbeatSettings.intervalSec)))
      .all()
      .filter((s) => !s.lastScheduledAt || now.getTime() - Date.parse(s.lastScheduledAt) >= (s.intervalSec ?? 0) * 1000);
    for (const s of due) {
      const at = now.toISOString();
      inTransaction(this.ctx, (tx) => {
        tx.update(agentHeartbeatSettings).set({ lastScheduledAt: at }).where(eq(agentHeartbeatSettings.agentId, s.agentId)).run();
        const agent = agentById(tx, s.agentId);
        if (!agent) return;
        const idle = s.skipWhenIdle && !hasWork(tx, agent.id);
        if (idle) {
          // An idle agent on a short schedule would add a row every interval forever: the latest
          // idle skip is refreshed instead, so the record says "idle since …, last checked …".
          const last = tx
            .select({ id: wakeRequests.id, reason: wakeRequests.reason, status: wakeRequests.status, skipReason: wakeRequests.skipReason })
            .from(wakeRequests)
            .where(eq(wakeRequests.agentId, agent.id))
            .orderBy(desc(wakeRequests.createdAt), desc(sql`rowid`))
            .limit(1)
            .get();
          if (last?.reason === 'schedule' && last.status === 'skipped' && last.skipReason === IDLE_SKIP) {
            tx.update(wakeRequests).set({ processedAt: at }).where(eq(wakeRequests.id, last.id)).run();
            return;
          }
        }
        const wakeId = requestWake(tx, at, { companyId: agent.companyId, agentId: agent.id, reason: 'schedule' });
        if (idle) {
          tx.update(wakeRequests).set({ status: 'skipped', skipReason: IDLE_SKIP, processedAt: at }).where(eq(wakeRequests.id, wakeId)).run();
        }
      });
    }
  }

  private turnWakesIntoRuns(now: Date): void {
    const pendingAgents = this.ctx.db.selectDistinct({ agentId: wakeRequests.agentId }).from(wakeRequests).where(eq(wakeRequests.status, 'pending')).all();
    for (const { agentId } of pendingAgents) {
      inTransaction(this.ctx, (tx) => {
        const agent = agentById(tx, agentId);
        if (!agent) return;
        // A run not started yet takes the new wakes in; a running one makes them wait for the next.
        const active = tx.select().from(heartbeatRuns).where(and(eq(heartbeatRuns.agentId, agentId), inArray(heartbeatRuns.status, ['queued', 'running']))).all();
        const queued = active.find((r) => r.status === 'queued');
        if (queued) {
          this.joinQueued(tx, queued, this.pendingWakes(tx, agentId), now.toISOString());
          return;
        }
        if (active.length) return;
        // The CLI said when its limit resets: no run starts before that; the wakes wait for it.
        if (rateLimitedUntil(tx, agentId, now)) return;
        const wakes = this.pendingWakes(tx, agentId);
        if (wakes.length === 0) return;
        const at = now.toISOString();
        const blocked = whyNotRunnable(tx, agent, now);
        if (blocked) {
          tx.update(wakeRequests).set({ status: 'skipped', skipReason: blocked, processedAt: at }).where(inArray(wakeRequests.id, wakes.map((w) => w.id))).run();
          return;
        }
        this.queueRun(tx, agent, wakes, at);
      });
    }
  }

  private pendingWakes(tx: Tx, agentId: string): WakeRequestRow[] {
    return tx.select().from(wakeRequests).where(and(eq(wakeRequests.agentId, agentId), eq(wakeRequests.status, 'pending'))).orderBy(asc(wakeRequests.createdAt)).all();
  }

  /** The agent's pending wakes become one queued run (coalescing); the trigger is the most urgent reason. */
  private queueRun(tx: Tx, agent: AgentRow, wakes: WakeRequestRow[], at: string): string {
    const trigger = TRIGGER_PRIORITY.find((r) => wakes.some((w) => w.reason === r)) ?? wakes[0]!.reason;
    const task = wakes.find((w) => w.issueId)?.issueId ?? null;
    const runId = newId();
    tx.insert(heartbeatRuns)
      .values({
        id: runId,
        companyId: agent.companyId,
        agentId: agent.id,
        status: 'queued',
        trigger,
        reasons: wakes.map((w) => ({ reason: w.reason, wakeRequestId: w.id, issueId: w.issueId })),
        taskIssueId: task,
        adapterType: agent.adapterType,
        queuedAt: at,
      })
      .run();
    tx.update(wakeRequests).set({ status: 'consumed', runId, processedAt: at }).where(inArray(wakeRequests.id, wakes.map((w) => w.id))).run();
    recordActivity(tx, at, 'system', {
      companyId: agent.companyId,
      action: 'run.queued',
      entityType: 'heartbeat_run',
      entityId: runId,
      summary: `Heartbeat of "${agent.name}" queued (${[...new Set(wakes.map((w) => w.reason))].join(', ')})`,
      details: { agentId: agent.id },
    });
    return runId;
  }

  /** Wakes that arrive before a queued run starts join it: its reasons, trigger and (if unset) its task. */
  private joinQueued(tx: Tx, run: HeartbeatRunRow, wakes: WakeRequestRow[], at: string): void {
    if (wakes.length === 0) return;
    const reasons = [...run.reasons, ...wakes.map((w) => ({ reason: w.reason, wakeRequestId: w.id, issueId: w.issueId }))];
    const trigger = TRIGGER_PRIORITY.find((r) => reasons.some((w) => w.reason === r)) ?? run.trigger;
    const task = run.taskIssueId ?? wakes.find((w) => w.issueId)?.issueId ?? null;
    tx.update(heartbeatRuns).set({ reasons, trigger, taskIssueId: task }).where(and(eq(heartbeatRuns.id, run.id), eq(heartbeatRuns.status, 'queued'))).run();
    tx.update(wakeRequests).set({ status: 'consumed', runId: run.id, processedAt: at }).where(inArray(wakeRequests.id, wakes.map((w) => w.id))).run();
  }

  /**
   * The run a manual invoke's wake belongs to, decided in the invoke's own transaction so the
   * caller can follow it: a queued run of the agent takes it in (coalesced); otherwise the pending
   * wakes become a queued run, which starts after a running one ends. Null while the agent's CLI is
   * rate limited: the wake stays pending until the reset. The caller has checked the agent may run.
   */
  queueWakeNow(tx: Tx, agent: AgentRow, wakeRequestId: string, now: Date): { runId: string; coalesced: boolean } | null {
    const at = now.toISOString();
    const queued = tx.select().from(heartbeatRuns).where(and(eq(heartbeatRuns.agentId, agent.id), eq(heartbeatRuns.status, 'queued'))).get();
    if (queued) {
      this.joinQueued(tx, queued, this.pendingWakes(tx, agent.id), at);
      return { runId: queued.id, coalesced: true };
    }
    if (rateLimitedUntil(tx, agent.id, now)) return null;
    const wakes = this.pendingWakes(tx, agent.id);
    if (!wakes.some((w) => w.id === wakeRequestId)) return null;
    return { runId: this.queueRun(tx, agent, wakes, at), coalesced: false };
  }

  /** Oldest queued runs first, up to the global cap: no agent can starve another. */
  private startQueued(now: Date): void {
    const free = this.maxConcurrent() - this.active.size;
    if (free <= 0) return;
    // One run at a time per agent: a follow-up queued during a run (a manual invoke) waits for it,
    // and for the CLI's rate-limit reset.
    const busy = new Set(this.ctx.db.select({ agentId: heartbeatRuns.agentId }).from(heartbeatRuns).where(eq(heartbeatRuns.status, 'running')).all().map((r) => r.agentId));
    const queued = this.ctx.db.select().from(heartbeatRuns).where(eq(heartbeatRuns.status, 'queued')).orderBy(asc(heartbeatRuns.queuedAt)).all();
    let started = 0;
    for (const run of queued) {
      if (started >= free) break;
      if (busy.has(run.agentId) || rateLimitedUntil(this.ctx.db, run.agentId, now)) continue;
      busy.add(run.agentId);
      started++;
      this.launch(run, now);
    }
  }

  private launch(run: HeartbeatRunRow, now: Date): void {
    const at = now.toISOString();
    const started = inTransaction(this.ctx, (tx) => {
      const agent = agentById(tx, run.agentId);
      const blocked = agent ? whyNotRunnable(tx, agent, now) : 'the agent no longer exists';
      if (blocked) {
        tx.update(heartbeatRuns).set({ status: 'cancelled', cancelReason: blocked, finishedAt: at }).where(eq(heartbeatRuns.id, run.id)).run();
        return null;
      }
      tx.update(heartbeatRuns).set({ status: 'running', startedAt: at }).where(and(eq(heartbeatRuns.id, run.id), eq(heartbeatRuns.status, 'queued'))).run();
      tx.update(agents).set({ status: 'running', updatedAt: at }).where(and(eq(agents.id, run.agentId), or(eq(agents.status, 'idle'), eq(agents.status, 'error')))).run();
      recordActivity(tx, at, 'system', { companyId: run.companyId, action: 'run.started', entityType: 'heartbeat_run', entityId: run.id, summary: `Heartbeat of "${agent!.name}" started`, details: { agentId: run.agentId } });
      return tx.select().from(heartbeatRuns).where(eq(heartbeatRuns.id, run.id)).get()!;
    });
    if (!started) return;
    const abort = new AbortController();
    const done = executeRun({ ctx: this.ctx, ...this.deps }, started, abort)
      .catch((err: unknown) => {
        // Whatever broke, the run must not stay `running`: record it as failed.
        const message = err instanceof Error ? err.message : String(err);
        this.ctx.logger.error('run failed to finish', { runId: run.id, message });
        finishRun({ ctx: this.ctx, ...this.deps }, started, {
          agentId: run.agentId,
          result: { exitCode: null, timedOut: false, errorCode: 'supervisor_error', errorMessage: message },
          meta: {},
          cancelled: abort.signal.aborted,
          transcriptBytes: 0,
          secrets: [],
        });
      })
      .finally(() => {
        this.active.delete(run.id);
        this.poke();
      });
    this.active.set(run.id, { abort, done });
  }
}

