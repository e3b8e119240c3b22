import { and, eq, isNull } from 'drizzle-orm';
import { DEFAULT_PROMPT, openRunNetwork, renderTemplate, withConfinement, type ExecutionResult, type RuntimeSkill } from '@service/adapter-utils';
import { runConfinement } from './confinement.js';
import { heartbeatRuns, agentSessions, type HeartbeatRunRow, type RunStatus } from './schema.js';
import { agents } from '../agents/schema.js';
import { issues, issueMentions } from '../issues/schema.js';
import { Redactor } from './redact.js';
import { RunContext, type RunOutcome } from './run-context.js';
import { limitsOf } from '../limits/service.js';
import type { RunTokens } from './run-token.js';
import { recordActivity } from '../activity/service.js';
import { centsToMicro } from '../costs/money.js';
import { heartbeatRuntimeSkill } from './skill.js';
import { inTransaction, type CoreContext } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import type { ResolvedEnv } from '../secrets/resolve.js';
import type { RunWorkspace, WorkspacesService } from '../workspaces/service.js';
import type { ActivityKind } from '../kernel/events.js';

export interface RunDeps {
  ctx: CoreContext;
  tokens: RunTokens;
  apiUrl: () => string;
  resolveEnv: (companyId: string, env: Record<string, unknown> | undefined) => Promise<ResolvedEnv>;
  /** Records the run's cost once, as a cost event of the agent. */
  recordCost: (actor: Actor, companyId: string, input: { agentId: string; provider: string; model: string; inputTokens: number; outputTokens: number; costCents: number; runId: string; issueId?: string }) => void;
  /** Grace after a run ends during which its token still works (late API calls of the CLI). */
  tokenGraceSec: number;
  /** Skills beyond the heartbeat skill that this company's agents get for a run (e.g. brand voice once configured). */
  companySkills?: (companyId: string) => RuntimeSkill[];
  /** The issue's own clone of the project's repository, when the project has a workspace. */
  workspaces?: Pick<WorkspacesService, 'forRun'>;
}

/** The run record keeps this much of the CLI's final answer. */
const MAX_SUMMARY = 8192;

/** Terminal status from what the adapter reported: exit 0 with an error result is a failure. */
/** Spelled out, so each event kind can be found by its name. */
const RUN_FINISHED = { succeeded: 'run.succeeded', failed: 'run.failed', timed_out: 'run.timed_out', cancelled: 'run.cancelled' } as const satisfies Record<string, ActivityKind>;

export function finalStatus(result: ExecutionResult, cancelled: boolean): Extract<RunStatus, 'cancelled' | 'timed_out' | 'succeeded' | 'failed'> {
  if (cancelled) return 'cancelled';
  if (result.timedOut) return 'timed_out';
  return result.exitCode === 0 && !result.errorCode ? 'succeeded' : 'failed';
}

/**
 * Executes one run that is already `running` in the database: resolves its environment and
 * prompt, streams redacted output to the transcript and the event stream, then records the
 * outcome, usage, cost and session, and puts the agent back to idle (or error).
 */
export async function executeRun(deps: RunDeps, run: HeartbeatRunRow, abort: AbortController): Promise<void> {
  const { ctx } = deps;
  const agent = ctx.db.select().from(agents).where(eq(agents.id, run.agentId)).get()!;
  const adapter = ctx.adapters.get(run.adapterType);
  const limits = limitsOf(ctx);
  const rc = new RunContext(ctx, run, limits.transcriptMaxBytes());
  let result: ExecutionResult = { exitCode: null, timedOut: false };
  try {
    if (!adapter) throw Object.assign(new Error(`No adapter of type "${run.adapterType}" is installed`), { code: 'adapter_missing' });
    // The confinement settings (inheritEnv, sandbox) are applied by the process runner, not the adapter.
    const { adapterConfig: config, confinement } = runConfinement(ctx.paths, adapter, { ...agent.adapterConfig }, run.id);
    // An allowlist gets its proxy and API bridge, or the run is refused (network_allowlist_unavailable).
    const network = await openRunNetwork(confinement, { apiUrl: deps.apiUrl() });
    if (network) rc.onEnd(() => network.close());
    const resolved = await deps.resolveEnv(run.companyId, config.env as Record<string, unknown> | undefined);
    rc.addSecrets(resolved.secretValues);
    if (config.headers) {
      const headers = await deps.resolveEnv(run.companyId, config.headers as Record<string, unknown>);
      config.headers = headers.env;
      rc.addSecrets(headers.secretValues);
    }
    // An issue with a workspace runs in its clone, whatever cwd the agent's configuration names.
    const workspace: RunWorkspace | null = (await deps.workspaces?.forRun(run, rc.emit)) ?? null;
    if (workspace) {
      rc.onEnd(() => workspace.release());
      config.cwd = workspace.path;
      // Its clone is the one place of the repository the sandbox lets the agent write.
      if (confinement.sandbox) confinement.sandbox.writable = [...(confinement.sandbox.writable ?? []), ...workspace.writablePaths];
    }
    const task = run.taskIssueId ? ctx.db.select().from(issues).where(eq(issues.id, run.taskIssueId)).get() : undefined;
    const session = ctx.db
      .select()
      .from(agentSessions)
      .where(and(eq(agentSessions.agentId, agent.id), eq(agentSessions.taskKey, run.taskIssueId ?? '')))
      .get();
    const maxLifetime = Number(config.timeoutSec ?? 300) + Number(config.graceMs ?? 10_000) / 1000 + deps.tokenGraceSec;
    const token = await deps.tokens.issue({ agentId: agent.id, companyId: agent.companyId, runId: run.id }, maxLifetime);
    const prompt = renderTemplate(typeof config.promptTemplate === 'string' ? config.promptTemplate : DEFAULT_PROMPT, {
      agentId: agent.id,
      agentName: agent.name,
      companyId: agent.companyId,
      runId: run.id,
      taskId: task?.identifier ?? '',
      taskTitle: task?.title ?? '',
      ...workspace?.templateVars,
    }) + (workspace?.promptNote ?? '');
    // The mentions this run is told about are delivered: later schedules need not wake for them.
    ctx.db.update(issueMentions).set({ readAt: ctx.clock.now().toISOString() }).where(and(eq(issueMentions.agentId, agent.id), isNull(issueMentions.readAt))).run();
    const execute = (sessionParams: Record<string, unknown> | null, apiKey: string) =>
      withConfinement(confinement, () => adapter.execute({
        config,
        agent: { id: agent.id, name: agent.name, companyId: agent.companyId, role: agent.role, title: agent.title },
        runtime: { apiUrl: deps.apiUrl(), apiKey, env: { ...resolved.env, ...workspace?.env }, sessionParams, prompt, wakeReason: run.trigger, skills: [heartbeatRuntimeSkill(), ...(deps.companySkills?.(run.companyId) ?? [])] },
        context: { taskId: task?.identifier ?? null, taskTitle: task?.title ?? null },
        runId: run.id,
        signal: abort.signal,
        onLog: rc.output,
        onMeta: (m) => {
          Object.assign(rc.meta, m);
          if (typeof m.pid === 'number') rc.recordProcess(m.pid);
        },
      }));
    result = await execute(session?.params ?? null, token);
    // A session the CLI no longer knows: forget it and retry once, in this same run, with a fresh
    // session (a follow-up run would wait for the next wake and lose this one's prompt).
    if (result.errorCode === 'unknown_session' && session && !abort.signal.aborted) {
      clearSession(ctx, agent.id, run.taskIssueId);
      rc.output('stderr', `[headcount] the stored session is unknown to the CLI (${result.errorMessage ?? 'unknown session'}); it was cleared, retrying once with a fresh session\n`);
      const retryToken = await deps.tokens.issue({ agentId: agent.id, companyId: agent.companyId, runId: run.id }, maxLifetime);
      result = await execute(null, retryToken);
    }
    // An unknown session without a retry still must not be resumed next time.
    if (result.errorCode === 'unknown_session' && result.sessionParams === undefined) result = { ...result, sessionParams: null };
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    result = { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: err instanceof Error ? err.message : String(err) };
  } finally {
    await rc.end();
  }
  finishRun(deps, run, rc.outcome(result, abort.signal.aborted));
  limits.afterRun(run, { droppedBytes: rc.writer.droppedBytes, maxBytes: rc.writer.maxBytes });
}

function clearSession(ctx: CoreContext, agentId: string, taskIssueId: string | null): void {
  ctx.db.delete(agentSessions).where(and(eq(agentSessions.agentId, agentId), eq(agentSessions.taskKey, taskIssueId ?? ''))).run();
}

/** The cost to record: none when the adapter could not price the usage (never a silent $0). */
export function runCostCents(usage: ExecutionResult['usage']): number | null {
  if (!usage || usage.costStatus === 'unpriced' || typeof usage.costCents !== 'number') return null;
  return usage.costCents;
}

/**
 * Records a finished run. Everything the adapter reported (session, usage, model and provider,
 * error code, message and hint, summary, command line) is redacted here, once, before any of it
 * reaches the run record, the session table, the activity log or a cost event.
 */
export function finishRun(deps: RunDeps, run: HeartbeatRunRow, outcome: RunOutcome) {
  const { ctx } = deps;
  const { agentId, result: reported, meta: reportedMeta, cancelled, transcriptBytes: bytes, secrets } = outcome;
  const redactor = new Redactor(secrets);
  const result = redactor.deep(reported);
  const meta = redactor.deep(reportedMeta);
  const status = finalStatus(result, cancelled);
  const at = ctx.clock.now().toISOString();
  const cost = runCostCents(result.usage);
  const command = meta.command ? redactor.text([meta.command, ...((meta.args as string[] | undefined) ?? [])].join(' ')) : null;
  inTransaction(ctx, (tx) => {
    tx.update(heartbeatRuns)
      .set({
        status,
        exitCode: result.exitCode,
        signal: result.signal ?? null,
        timedOut: result.timedOut,
        command,
        usage: result.usage ? { ...result.usage, costStatus: result.usage.costStatus ?? 'reported' } : null,
        costMicroCents: cost === null ? null : centsToMicro(cost),
        sessionParams: result.sessionParams ?? null,
        errorCode: result.errorCode ?? (status !== 'failed' ? null : result.signal ? 'killed_by_signal' : 'nonzero_exit'),
        errorMessage: result.errorMessage || null,
        errorHint: typeof result.errorHint === 'string' ? result.errorHint : null,
        summary: typeof result.summary === 'string' ? result.summary.slice(0, MAX_SUMMARY) : null,
        rateLimitResetAt: result.errorCode === 'rate_limited' && typeof result.rateLimitResetAt === 'string' && !Number.isNaN(Date.parse(result.rateLimitResetAt)) ? new Date(result.rateLimitResetAt).toISOString() : null,
        transcriptBytes: bytes,
        finishedAt: at,
      })
      .where(eq(heartbeatRuns.id, run.id))
      .run();
    if (result.sessionParams !== undefined) {
      const taskKey = run.taskIssueId ?? '';
      if (result.sessionParams === null) {
        tx.delete(agentSessions).where(and(eq(agentSessions.agentId, agentId), eq(agentSessions.taskKey, taskKey))).run();
      } else {
        tx.insert(agentSessions)
          .values({ agentId, taskKey, params: result.sessionParams, runId: run.id, updatedAt: at })
          .onConflictDoUpdate({ target: [agentSessions.agentId, agentSessions.taskKey], set: { params: result.sessionParams, runId: run.id, updatedAt: at } })
          .run();
      }
    }
    // The agent's status follows its runs, unless the board or the budget changed it meanwhile.
    const agent = tx.select({ status: agents.status }).from(agents).where(eq(agents.id, agentId)).get();
    if (agent?.status === 'running') {
      tx.update(agents).set({ status: status === 'succeeded' || status === 'cancelled' ? 'idle' : 'error', updatedAt: at }).where(eq(agents.id, agentId)).run();
    }
    recordActivity(tx, at, 'system', {
      companyId: run.companyId,
      action: RUN_FINISHED[status],
      entityType: 'heartbeat_run',
      entityId: run.id,
      summary: `Heartbeat ${status}${result.errorCode ? ` (${result.errorCode})` : ''}`,
      details: { agentId, exitCode: result.exitCode, signal: result.signal ?? null },
    });
  });
  if (result.usage && cost !== null) {
    const actor: Actor = { kind: 'agent', agentId, companyId: run.companyId, keyId: null, runId: run.id };
    try {
      const { provider, model, inputTokens, outputTokens } = result.usage;
      deps.recordCost(actor, run.companyId, { agentId, provider, model, inputTokens, outputTokens, costCents: cost, runId: run.id, ...(run.taskIssueId ? { issueId: run.taskIssueId } : {}) });
    } catch (err) {
      ctx.logger.error('could not record the cost of a run', { runId: run.id, message: redactor.text(err instanceof Error ? err.message : String(err)) });
    }
  }
}
