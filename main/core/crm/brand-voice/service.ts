import { createHash } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext } from '../../context.js';
import { badRequest, ServiceError } from '../../kernel/errors.js';
import { assertBoard } from '../../kernel/access.js';
import { assertCompany } from '../../companies/service.js';
import { recordActivity } from '../../activity/service.js';
import { assertSecretUri } from '../../secrets/refs.js';
import { validateAdapterConfig } from '../../agents/adapter-config.js';
import { crmBrandVoiceChecks, crmBrandVoiceGuides, crmBrandVoiceSettings, type CrmBrandVoiceCheckRow, type CrmBrandVoiceGuideRow, type CrmBrandVoiceSettingsRow } from './schema.js';
import type { BrandVoiceCheckBody, BrandVoiceCheckResult, BrandVoiceGuide, BrandVoiceGuideBody, BrandVoiceSettings, BrandVoiceSettingsBody, CheckerAnswer } from './contract.js';
import { checkWithChatCompletions, type BrandVoiceChecker, type BrandVoiceCheckerResult } from './checker.js';
import { checkWithAdapter, unavailable } from './adapter-checker.js';
import { applyGuide, mergeAnswers, RULES_MODEL } from './rules.js';

export interface BrandVoiceDeps {
  /** Resolves `secret://` references at call time (the secrets service). */
  resolveSecret(companyId: string, ref: string): Promise<string>;
  /** Resolves an adapter config's env (plain values and secret references), for the model-backed check. */
  resolveEnv(companyId: string, env: Record<string, unknown> | undefined): Promise<{ env: Record<string, string> }>;
  /** Replaces the per-company model-backed checker for every company (embedders); the guide's rules still apply. */
  checker?: BrandVoiceChecker | undefined;
}

const EMPTY_GUIDE = { toneNotes: '', bannedPhrases: [], requiredClaims: [], minLength: null, maxLength: null, modelAdapterType: null, modelAdapterConfig: null, updatedAt: null };

const presentGuide = (row: CrmBrandVoiceGuideRow | typeof EMPTY_GUIDE): BrandVoiceGuide => ({
  toneNotes: row.toneNotes,
  bannedPhrases: row.bannedPhrases,
  requiredClaims: row.requiredClaims,
  minLength: row.minLength,
  maxLength: row.maxLength,
  modelCheck: row.modelAdapterType ? { adapterType: row.modelAdapterType, adapterConfig: row.modelAdapterConfig ?? {} } : null,
  updatedAt: row.updatedAt,
});

/** The guide as the model-backed checks read it. */
function guideText(guide: BrandVoiceGuide, extra: string | null): string {
  const parts = [extra, guide.toneNotes.trim() || null];
  if (guide.bannedPhrases.length) parts.push(`Never use: ${guide.bannedPhrases.map((p) => `"${p}"`).join(', ')}`);
  if (guide.requiredClaims.length) parts.push(`Always state: ${guide.requiredClaims.map((p) => `"${p}"`).join(', ')}`);
  if (guide.minLength !== null || guide.maxLength !== null) parts.push(`Length in characters: ${guide.minLength ?? 0} to ${guide.maxLength ?? 'any'}`);
  return parts.filter((p): p is string => Boolean(p)).join('\n\n') || '(no guide written yet: judge general clarity and professionalism)';
}

/** Problems reported for a request body's top-level fields, moved under `body.modelCheck`. */
function underModelCheck<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const details = e instanceof ServiceError && e.status === 400 ? (e.details as { problems?: { path: string }[] } | undefined) : undefined;
    if (!(e instanceof ServiceError) || !details?.problems) throw e;
    const move = (path: string) => path.replace(/^body\./, 'body.modelCheck.');
    throw new ServiceError(400, e.code, move(e.message), { ...details, problems: details.problems.map((p) => ({ ...p, path: move(p.path) })) });
  }
}

export const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

const present = (row: CrmBrandVoiceCheckRow, cached: boolean): BrandVoiceCheckResult => ({
  contentSha256: row.contentSha256,
  verdict: row.verdict,
  score: row.score,
  summary: row.summary,
  findings: row.findings,
  model: row.model,
  checkedAt: row.checkedAt,
  hitCount: row.hitCount,
  cached,
});

/**
 * Brand-voice checks (spec 4.8 rule 5): the cache by (company, contentSha256) first, a hit makes
 * no model call; a miss runs the company's checker, stores the verdict and returns it. Concurrent
 * misses for one hash share one call (single flight, in process: the core is the only writer).
 */
export function createBrandVoiceService(ctx: CoreContext, deps: BrandVoiceDeps) {
  const inFlight = new Map<string, Promise<BrandVoiceCheckResult>>();

  const settingsOf = (companyId: string): CrmBrandVoiceSettingsRow | undefined =>
    ctx.db.select().from(crmBrandVoiceSettings).where(eq(crmBrandVoiceSettings.companyId, companyId)).get();

  const guideOf = (companyId: string): BrandVoiceGuide => {
    const row = ctx.db.select().from(crmBrandVoiceGuides).where(eq(crmBrandVoiceGuides.companyId, companyId)).get();
    return presentGuide(row ?? EMPTY_GUIDE);
  };

  /**
   * The model-backed checker, if any: an embedder's, else the chat-completions endpoint the board
   * set, else the guide's adapter. Null = the rules alone decide (the built-in checker).
   */
  function modelCheckerFor(companyId: string, guide: BrandVoiceGuide): BrandVoiceChecker | null {
    if (deps.checker) return deps.checker;
    const settings = settingsOf(companyId);
    if (settings) {
      return {
        async check({ draft }) {
          const apiKey = settings.apiKeyRef ? await deps.resolveSecret(companyId, settings.apiKeyRef) : null;
          return checkWithChatCompletions({ endpointUrl: settings.endpointUrl, model: settings.model, apiKey, guidelines: guideText(guide, settings.guidelines), timeoutMs: settings.timeoutMs }, draft);
        },
      };
    }
    const chosen = guide.modelCheck;
    if (!chosen) return null;
    return {
      async check({ draft }) {
        const adapter = ctx.adapters.get(chosen.adapterType);
        if (!adapter) throw unavailable(`The brand-voice adapter type "${chosen.adapterType}" is not installed`);
        const parsed = adapter.configSchema.safeParse(chosen.adapterConfig);
        if (!parsed.success) throw unavailable(`The brand-voice adapter config no longer fits ${chosen.adapterType}; save the guide again`);
        const { env } = await deps.resolveEnv(companyId, parsed.data.env as Record<string, unknown> | undefined);
        return checkWithAdapter({ companyId, adapter, config: parsed.data, env, guideText: guideText(guide, null), draft });
      },
    };
  }

  /** The built-in rules, then the model-backed check when one is configured; its failure caches nothing. */
  async function runCheck(companyId: string, sha: string, draft: string): Promise<BrandVoiceCheckerResult> {
    const guide = guideOf(companyId);
    const rules: CheckerAnswer = applyGuide(guide, draft);
    const checker = modelCheckerFor(companyId, guide);
    if (!checker) return { ...rules, model: RULES_MODEL };
    const answer = await checker.check({ companyId, contentSha256: sha, draft });
    return { ...mergeAnswers(rules, answer), model: answer.model };
  }

  /** A hit: counted, returned, no model call. */
  function hit(companyId: string, sha: string): BrandVoiceCheckResult | null {
    const at = isoNow(ctx);
    const row = ctx.db
      .update(crmBrandVoiceChecks)
      .set({ hitCount: sql`${crmBrandVoiceChecks.hitCount} + 1`, lastHitAt: at })
      .where(and(eq(crmBrandVoiceChecks.companyId, companyId), eq(crmBrandVoiceChecks.contentSha256, sha)))
      .returning()
      .get();
    return row ? present(row, true) : null;
  }

  async function miss(actor: Actor | 'system', companyId: string, sha: string, draft: string): Promise<BrandVoiceCheckResult> {
    const answer = await runCheck(companyId, sha, draft);
    return inTransaction(ctx, (tx) => {
      const at = isoNow(ctx);
      const values = { verdict: answer.verdict, score: answer.score, summary: answer.summary, findings: answer.findings, model: answer.model, checkedAt: at, hitCount: 0, lastHitAt: null };
      const row = tx
        .insert(crmBrandVoiceChecks)
        .values({ companyId, contentSha256: sha, ...values })
        .onConflictDoUpdate({ target: [crmBrandVoiceChecks.companyId, crmBrandVoiceChecks.contentSha256], set: values })
        .returning()
        .get();
      recordActivity(tx, at, actor, {
        companyId,
        action: 'crm.brand_voice.checked',
        entityType: 'crm_brand_voice_check',
        entityId: sha,
        summary: `Brand-voice check: ${answer.verdict} (${answer.score}/100)`,
        details: { verdict: answer.verdict, score: answer.score, model: answer.model },
      });
      return present(row, false);
    });
  }

  /** The check without access checks, for internal callers (the brand-voice-coverage hook). */
  function checkContent(actor: Actor | 'system', companyId: string, sha: string, draft: string): Promise<BrandVoiceCheckResult> {
    const cached = hit(companyId, sha);
    if (cached) return Promise.resolve(cached);
    const key = `${companyId}:${sha}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = miss(actor, companyId, sha, draft).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  }

  function getSettings(actor: Actor, companyId: string): BrandVoiceSettings {
    assertBoard(actor, 'read the brand-voice checker settings');
    assertCompany(ctx.db, actor, companyId);
    const row = settingsOf(companyId);
    const cachedVerdicts = ctx.db.select({ n: count() }).from(crmBrandVoiceChecks).where(eq(crmBrandVoiceChecks.companyId, companyId)).get()?.n ?? 0;
    return {
      configured: Boolean(row) || Boolean(deps.checker),
      endpointUrl: row?.endpointUrl ?? null,
      model: row?.model ?? null,
      apiKeyRef: row?.apiKeyRef ?? null,
      guidelines: row?.guidelines ?? null,
      timeoutMs: row?.timeoutMs ?? null,
      updatedAt: row?.updatedAt ?? null,
      cachedVerdicts,
    };
  }

  return {
    checkContent,
    getSettings,

    /**
     * Whether the company has a guide or a model-backed checker (its agents then get the self-check
     * skill). A check runs without either, but then every draft passes: not worth a skill.
     */
    isConfigured: (companyId: string): boolean =>
      Boolean(deps.checker) || Boolean(settingsOf(companyId)) || Boolean(ctx.db.select({ id: crmBrandVoiceGuides.companyId }).from(crmBrandVoiceGuides).where(eq(crmBrandVoiceGuides.companyId, companyId)).get()),

    /** The guide: the board and the company's agents read it (agents write their drafts to it). */
    getGuide(actor: Actor, companyId: string): BrandVoiceGuide {
      assertCompany(ctx.db, actor, companyId);
      return guideOf(companyId);
    },

    /**
     * Replaces the guide (board only). A changed guide empties the company's cache: verdicts given
     * against the old rules would otherwise keep answering. The adapter config is checked like an
     * agent's (schema, defaults, secret references of this company).
     */
    putGuide(actor: Actor, companyId: string, body: BrandVoiceGuideBody): BrandVoiceGuide {
      assertBoard(actor, 'edit the brand-voice guide');
      assertCompany(ctx.db, actor, companyId);
      const modelCheck = body.modelCheck;
      const adapterConfig = modelCheck
        ? underModelCheck(() => validateAdapterConfig(ctx.adapters, modelCheck.adapterType, modelCheck.adapterConfig, ctx.db, companyId))
        : null;
      return inTransaction(ctx, (tx) => {
        const at = isoNow(ctx);
        const values = {
          toneNotes: body.toneNotes,
          bannedPhrases: body.bannedPhrases,
          requiredClaims: body.requiredClaims,
          minLength: body.minLength,
          maxLength: body.maxLength,
          modelAdapterType: modelCheck?.adapterType ?? null,
          modelAdapterConfig: adapterConfig,
          updatedAt: at,
        };
        const before = tx.select().from(crmBrandVoiceGuides).where(eq(crmBrandVoiceGuides.companyId, companyId)).get();
        const row = tx.insert(crmBrandVoiceGuides).values({ companyId, ...values }).onConflictDoUpdate({ target: crmBrandVoiceGuides.companyId, set: values }).returning().get();
        const same = (a: BrandVoiceGuide, b: BrandVoiceGuide) => JSON.stringify({ ...a, updatedAt: null }) === JSON.stringify({ ...b, updatedAt: null });
        const cleared = same(presentGuide(before ?? EMPTY_GUIDE), presentGuide(row)) ? 0 : tx.delete(crmBrandVoiceChecks).where(eq(crmBrandVoiceChecks.companyId, companyId)).run().changes;
        recordActivity(tx, at, actor, {
          companyId,
          action: 'crm.brand_voice.guide_updated',
          entityType: 'company',
          entityId: companyId,
          summary: `Brand-voice guide updated${cleared ? `; ${cleared} cached verdict(s) cleared` : ''}`,
          details: { bannedPhrases: row.bannedPhrases.length, requiredClaims: row.requiredClaims.length, modelAdapterType: row.modelAdapterType, clearedVerdicts: cleared },
        });
        return presentGuide(row);
      });
    },

    /** POST /crm/brand-voice/check. The hash must be the draft's: a wrong one would poison the cache for another text. */
    check(actor: Actor, companyId: string, body: BrandVoiceCheckBody): Promise<BrandVoiceCheckResult> {
      assertCompany(ctx.db, actor, companyId);
      const actual = sha256Hex(Buffer.from(body.draft, 'utf8'));
      if (actual !== body.contentSha256) {
        throw badRequest('content_sha256_mismatch', 'body.contentSha256: is not the sha256 of the UTF-8 bytes of body.draft', { expected: actual });
      }
      return checkContent(actor, companyId, body.contentSha256, body.draft);
    },

    /**
     * Sets the checker. A new guide, model or endpoint empties the company's cache: verdicts given
     * against the old guide would otherwise keep answering for the new one.
     */
    putSettings(actor: Actor, companyId: string, body: BrandVoiceSettingsBody): BrandVoiceSettings {
      assertBoard(actor, 'configure the brand-voice checker');
      assertCompany(ctx.db, actor, companyId);
      if (body.apiKeyRef) assertSecretUri(ctx.db, companyId, body.apiKeyRef, 'body.apiKeyRef');
      inTransaction(ctx, (tx) => {
        const at = isoNow(ctx);
        const before = tx.select().from(crmBrandVoiceSettings).where(eq(crmBrandVoiceSettings.companyId, companyId)).get();
        const values = { endpointUrl: body.endpointUrl, model: body.model, apiKeyRef: body.apiKeyRef, guidelines: body.guidelines, timeoutMs: body.timeoutMs, updatedAt: at };
        tx.insert(crmBrandVoiceSettings).values({ companyId, ...values }).onConflictDoUpdate({ target: crmBrandVoiceSettings.companyId, set: values }).run();
        const judgedDifferently = before && (before.guidelines !== body.guidelines || before.model !== body.model || before.endpointUrl !== body.endpointUrl);
        const cleared = judgedDifferently ? tx.delete(crmBrandVoiceChecks).where(eq(crmBrandVoiceChecks.companyId, companyId)).run().changes : 0;
        recordActivity(tx, at, actor, {
          companyId,
          action: 'crm.brand_voice.settings_updated',
          entityType: 'company',
          entityId: companyId,
          summary: `Brand-voice checker set to ${body.model}${cleared ? `; ${cleared} cached verdict(s) cleared` : ''}`,
          details: { model: body.model, endpointUrl: body.endpointUrl, clearedVerdicts: cleared },
        });
      });
      return getSettings(actor, companyId);
    },

    /** Removes the checker: misses answer 503 again, cached verdicts stay. */
    deleteSettings(actor: Actor, companyId: string): void {
      assertBoard(actor, 'configure the brand-voice checker');
      assertCompany(ctx.db, actor, companyId);
      ctx.db.delete(crmBrandVoiceSettings).where(eq(crmBrandVoiceSettings.companyId, companyId)).run();
    },
  };
}

export type BrandVoiceService = ReturnType<typeof createBrandVoiceService>;
