import { createHash } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../http/actor.js';
import { inTransaction, isoNow, type CoreContext } from '../../context.js';
import { badRequest, ServiceError } from '../../errors.js';
import { assertBoard } from '../../access.js';
import { requireCompany } from '../../companies/service.js';
import { recordActivity } from '../../activity/service.js';
import { assertSecretUri } from '../../secrets/refs.js';
import { crmBrandVoiceChecks, crmBrandVoiceSettings, type CrmBrandVoiceCheckRow, type CrmBrandVoiceSettingsRow } from './schema.js';
import type { BrandVoiceCheckBody, BrandVoiceCheckResult, BrandVoiceSettings, BrandVoiceSettingsBody } from './contract.js';
import { checkWithChatCompletions, type BrandVoiceChecker } from './checker.js';

export interface BrandVoiceDeps {
  /** Resolves `secret://` references at call time (the secrets service). */
  resolveSecret(companyId: string, ref: string): Promise<string>;
  /** Replaces the per-company chat-completions checker for every company (embedders). */
  checker?: BrandVoiceChecker | undefined;
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

  function checkerFor(companyId: string): BrandVoiceChecker | null {
    if (deps.checker) return deps.checker;
    const settings = settingsOf(companyId);
    if (!settings) return null;
    return {
      async check({ draft }) {
        const apiKey = settings.apiKeyRef ? await deps.resolveSecret(companyId, settings.apiKeyRef) : null;
        return checkWithChatCompletions({ endpointUrl: settings.endpointUrl, model: settings.model, apiKey, guidelines: settings.guidelines, timeoutMs: settings.timeoutMs }, draft);
      },
    };
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
    const checker = checkerFor(companyId);
    if (!checker) {
      throw new ServiceError(503, 'brand_voice_unavailable', 'No brand-voice checker is configured for this company (PUT /crm/brand-voice/settings); cached verdicts are still served');
    }
    const answer = await checker.check({ companyId, contentSha256: sha, draft });
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
    requireCompany(ctx.db, actor, companyId);
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

    /** Whether a check can run for the company (its agents then get the self-check skill). */
    isConfigured: (companyId: string): boolean => Boolean(deps.checker) || Boolean(settingsOf(companyId)),

    /** POST /crm/brand-voice/check. The hash must be the draft's: a wrong one would poison the cache for another text. */
    check(actor: Actor, companyId: string, body: BrandVoiceCheckBody): Promise<BrandVoiceCheckResult> {
      requireCompany(ctx.db, actor, companyId);
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
      requireCompany(ctx.db, actor, companyId);
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
      requireCompany(ctx.db, actor, companyId);
      ctx.db.delete(crmBrandVoiceSettings).where(eq(crmBrandVoiceSettings.companyId, companyId)).run();
    },
  };
}

export type BrandVoiceService = ReturnType<typeof createBrandVoiceService>;
