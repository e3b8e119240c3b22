import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../kernel/errors.js';
import type { Actor } from '../kernel/actor.js';
import { agents } from '../agents/schema.js';
import { assets } from '../assets/schema.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, unlessCommitted, type CoreContext } from '../context.js';
import { SlidingWindow } from './sliding-window.js';
import { FIXED_LIMITS, readLimits, readLimitSettings, type LimitSettings } from './settings.js';
import { enforceTranscriptBudget } from './transcript-budget.js';

/** The activity action (and event type) of an agent running into a limit; the inbox lists it. */
export const LIMIT_EXCEEDED = 'limit.exceeded';

export type LimitName = keyof LimitSettings | keyof typeof FIXED_LIMITS;

/** 413 or 429 of the error contract; a 429 also carries the seconds for its Retry-After header. */
export class LimitError extends ServiceError {
  constructor(
    status: 413 | 429,
    code: string,
    message: string,
    readonly limit: LimitName,
    details: Record<string, unknown>,
    readonly retryAfterSec?: number,
  ) {
    super(status, code, message, { limit, ...details, ...(retryAfterSec !== undefined ? { retryAfterSec } : {}) });
  }
}

/** Route `onError` hook: a 429 tells the client when to come back (the error body has it too). */
export function retryAfterOnError(_req: FastifyRequest, reply: FastifyReply, err: unknown, done: () => void): void {
  if (err instanceof LimitError && err.retryAfterSec !== undefined) void reply.header('retry-after', String(err.retryAfterSec));
  done();
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/** Activity of one agent and one limit is written at most this often: a flood must not flood the log. */
const REPORT_EVERY_MS = 60_000;

/**
 * Every per-agent and per-company limit, checked here and nowhere else. Rates are per agent, so
 * its run tokens and its keys share them; the board is never rate limited (budgets and sizes
 * apply to it too). An agent running into a limit leaves one `limit.exceeded` activity entry per
 * limit and minute, which the dashboard's inbox shows.
 */
export function createLimits(ctx: CoreContext) {
  const windows = new SlidingWindow(60_000);
  const reported = new Map<string, number>();
  const now = () => ctx.clock.now().getTime();

  /**
   * Records the hit in its own transaction, before the refusal is answered. Every check that
   * reports runs outside the caller's transaction (the budget check included), so the refused
   * request writes nothing else and its record of being refused is not rolled back.
   */
  function report(actor: Actor, limit: LimitName, summary: string, details: Record<string, unknown>): void {
    if (actor.kind !== 'agent') return;
    const companyId = actor.companyId;
    const key = `${actor.agentId}:${limit}`;
    const t = now();
    if ((reported.get(key) ?? -Infinity) > t - REPORT_EVERY_MS) return;
    reported.set(key, t);
    if (reported.size > 10_000) for (const [k, at] of reported) if (at <= t - REPORT_EVERY_MS) reported.delete(k);
    try {
      inTransaction(ctx, (tx) => {
        const agent = tx.select({ name: agents.name }).from(agents).where(eq(agents.id, actor.agentId)).get();
        recordActivity(tx, ctx.clock.now().toISOString(), actor, {
          companyId,
          action: LIMIT_EXCEEDED,
          entityType: 'agent',
          entityId: actor.agentId,
          summary: `${agent?.name ?? 'An agent'} hit a limit: ${summary}`,
          details: { limit, ...details },
        });
      });
    } catch (err) {
      ctx.logger.warn('could not record a limit hit', { limit, message: err instanceof Error ? err.message : String(err) });
    }
  }

  function rate(actor: Actor, limit: keyof LimitSettings, weight: number, max: number, what: string): void {
    if (actor.kind !== 'agent') return;
    const verdict = windows.check(`${limit}:${actor.agentId}`, now(), weight, max);
    if (verdict.ok) return;
    const retryAfterSec = Math.ceil(verdict.retryAfterMs / 1000);
    report(actor, limit, `${what} (${max} per minute)`, { max });
    throw new LimitError(429, 'rate_limited', `Too many ${what}: at most ${max} per minute per agent; retry in ${retryAfterSec} s`, limit, { max }, retryAfterSec);
  }

  return {
    /** Every limit in force now (GET /api/settings `limits`). */
    current: () => readLimits(ctx.db),

    /**
     * A comment of at most 64 KiB of UTF-8, within the author's comment rate: `write` stores it,
     * and only a stored comment counts against the rate.
     */
    comment<T>(actor: Actor, body: string, write: () => T): T {
      const size = utf8Bytes(body);
      if (size > FIXED_LIMITS.commentMaxBytes) {
        report(actor, 'commentMaxBytes', `a comment of ${size} bytes (at most ${FIXED_LIMITS.commentMaxBytes})`, { bytes: size, max: FIXED_LIMITS.commentMaxBytes });
        throw new LimitError(413, 'comment_too_large', `A comment holds at most ${FIXED_LIMITS.commentMaxBytes} bytes of UTF-8; this one has ${size}`, 'commentMaxBytes', { bytes: size, max: FIXED_LIMITS.commentMaxBytes });
      }
      const max = readLimitSettings(ctx.db).commentsPerMinute;
      rate(actor, 'commentsPerMinute', 1, max, 'comments');
      const result = write();
      // Counted now, so the next comment of this turn already sees it; taken back if the commit
      // group it joined fails, since only a stored comment counts.
      if (actor.kind === 'agent') unlessCommitted(ctx.db, windows.record(`commentsPerMinute:${actor.agentId}`, now(), 1));
      return result;
    },

    /** Before the upload's body is read: an agent already at its upload count is turned away early. */
    uploadStart(actor: Actor): void {
      rate(actor, 'attachmentUploadsPerMinute', 1, readLimitSettings(ctx.db).attachmentUploadsPerMinute, 'uploads');
    },

    /** An upload of `bytes` within the agent's upload rates; `write` stores it, and only then it counts. */
    upload<T>(actor: Actor, bytes: number, write: () => T): T {
      const limits = readLimitSettings(ctx.db);
      rate(actor, 'attachmentUploadsPerMinute', 1, limits.attachmentUploadsPerMinute, 'uploads');
      rate(actor, 'attachmentBytesPerMinute', bytes, limits.attachmentBytesPerMinute, 'uploaded bytes');
      const result = write();
      if (actor.kind === 'agent') {
        windows.record(`attachmentUploadsPerMinute:${actor.agentId}`, now(), 1);
        windows.record(`attachmentBytesPerMinute:${actor.agentId}`, now(), bytes);
      }
      return result;
    },

    /**
     * Before an upload is stored: the company's live attachments plus this file must fit its
     * budget. Checked and stored without yielding to another request, so two uploads cannot both
     * pass on the same room.
     */
    assertAttachmentBudget(actor: Actor, companyId: string, fileBytes: number): void {
      const budget = readLimitSettings(ctx.db).attachmentCompanyBudgetBytes;
      if (budget <= 0) return;
      const before = ctx.db
        .select({ n: sql<number>`coalesce(sum(${assets.byteSize}), 0)` })
        .from(assets)
        .where(and(eq(assets.companyId, companyId), eq(assets.kind, 'attachment'), isNull(assets.deletedAt)))
        .get()!.n;
      const used = before + fileBytes;
      if (used <= budget) return;
      report(actor, 'attachmentCompanyBudgetBytes', `the company's attachment budget (${mib(budget)})`, { budgetBytes: budget, usedBytes: before, fileBytes });
      throw new LimitError(
        413,
        'attachment_budget_exceeded',
        `The company's attachments would use ${used} bytes, over its budget of ${budget} bytes (${before} used now); delete attachments or raise attachmentCompanyBudgetBytes`,
        'attachmentCompanyBudgetBytes',
        { budgetBytes: budget, usedBytes: before, fileBytes },
      );
    },

    /** The per-run transcript cap in force for a run starting now. */
    transcriptMaxBytes: () => readLimitSettings(ctx.db).transcriptMaxBytes,

    /**
     * After a run's transcript is closed: a run that printed past the cap is reported, and the
     * company's transcripts are brought back within its budget.
     */
    afterRun(run: { id: string; agentId: string; companyId: string }, transcript: { droppedBytes: number; maxBytes: number }): void {
      const actor: Actor = { kind: 'agent', agentId: run.agentId, companyId: run.companyId, keyId: null, runId: run.id };
      if (transcript.droppedBytes > 0) {
        report(actor, 'transcriptMaxBytes', `run output over the transcript cap (${mib(transcript.maxBytes)}); ${mib(transcript.droppedBytes)} from its middle were dropped`, {
          runId: run.id,
          droppedBytes: transcript.droppedBytes,
          max: transcript.maxBytes,
        });
      }
      // The run is already recorded: a failing purge is logged, never turned into a failed run.
      try {
        this.enforceTranscriptBudget(run.companyId);
      } catch (err) {
        ctx.logger.error('transcript budget: purge failed', { companyId: run.companyId, message: err instanceof Error ? err.message : String(err) });
      }
    },

    enforceTranscriptBudget(companyId: string) {
      const purged = enforceTranscriptBudget(ctx, companyId, readLimitSettings(ctx.db).transcriptCompanyBudgetBytes);
      if (purged.runs > 0) ctx.logger.info('transcript budget: deleted old transcripts', { companyId, runs: purged.runs, bytes: purged.bytes });
      return purged;
    },
  };
}

export type LimitsService = ReturnType<typeof createLimits>;

const perContext = new WeakMap<CoreContext, LimitsService>();

/** The one limits service of a core: every area asks it through its context, so the windows are shared. */
export function limitsOf(ctx: CoreContext): LimitsService {
  let limits = perContext.get(ctx);
  if (!limits) perContext.set(ctx, (limits = createLimits(ctx)));
  return limits;
}
