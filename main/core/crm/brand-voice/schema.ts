import { sqliteTable, text, integer, primaryKey, index } from 'drizzle-orm/sqlite-core';
import { timestamp, json } from '../../db/columns.js';
import { companies } from '../../companies/schema.js';

export const BRAND_VOICE_VERDICTS = ['pass', 'needs_revision', 'fail'] as const;
export type BrandVoiceVerdict = (typeof BRAND_VOICE_VERDICTS)[number];

export interface BrandVoiceFinding {
  severity: 'info' | 'minor' | 'major';
  message: string;
  excerpt?: string | undefined;
}

/** The brand-voice cache (spec 2.10): one verdict per company and content hash; a hit makes no model call. */
export const crmBrandVoiceChecks = sqliteTable(
  'crm_brand_voice_checks',
  {
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id),
    /** sha256 hex of the UTF-8 bytes that were checked. */
    contentSha256: text('content_sha256').notNull(),
    verdict: text('verdict', { enum: BRAND_VOICE_VERDICTS }).notNull(),
    score: integer('score').notNull(),
    summary: text('summary').notNull(),
    findings: json<BrandVoiceFinding[]>('findings').notNull(),
    /** The model that gave the verdict (as configured when it was checked). */
    model: text('model').notNull(),
    checkedAt: timestamp('checked_at').notNull(),
    /** Cache hits served since the check; the miss that stored the row is not counted. */
    hitCount: integer('hit_count').notNull().default(0),
    lastHitAt: timestamp('last_hit_at'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.contentSha256] }), index('crm_brand_voice_checks_checked_idx').on(t.companyId, t.checkedAt)],
);
export type CrmBrandVoiceCheckRow = typeof crmBrandVoiceChecks.$inferSelect;

/** Per-company checker configuration (board only). No row = no checker: misses answer 503. */
export const crmBrandVoiceSettings = sqliteTable('crm_brand_voice_settings', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id),
  /** Full URL of an OpenAI-compatible chat-completions endpoint. */
  endpointUrl: text('endpoint_url').notNull(),
  model: text('model').notNull(),
  /** `secret://<id>:<latest|n>`, resolved at each call; null for an endpoint without a key (a local model). */
  apiKeyRef: text('api_key_ref'),
  /** The brand-voice guide the model judges against. */
  guidelines: text('guidelines').notNull(),
  timeoutMs: integer('timeout_ms').notNull(),
  updatedAt: timestamp('updated_at').notNull(),
});
export type CrmBrandVoiceSettingsRow = typeof crmBrandVoiceSettings.$inferSelect;

/**
 * The company's brand-voice guide (board only), applied by the built-in checker with deterministic
 * rules. No row = the empty guide (every draft passes the rules). `modelAdapterType` optionally
 * adds a model-backed check through a local coding CLI in print mode.
 */
export const crmBrandVoiceGuides = sqliteTable('crm_brand_voice_guides', {
  companyId: text('company_id')
    .primaryKey()
    .references(() => companies.id),
  /** Free text for people and for the model-backed check; no rule reads it. */
  toneNotes: text('tone_notes').notNull(),
  bannedPhrases: json<string[]>('banned_phrases').notNull(),
  requiredClaims: json<string[]>('required_claims').notNull(),
  /** Characters (code points) of the draft, trimmed; null = no bound. */
  minLength: integer('min_length'),
  maxLength: integer('max_length'),
  /** An adapter type of the registry; null = rules only. */
  modelAdapterType: text('model_adapter_type'),
  modelAdapterConfig: json<Record<string, unknown>>('model_adapter_config'),
  updatedAt: timestamp('updated_at').notNull(),
});
export type CrmBrandVoiceGuideRow = typeof crmBrandVoiceGuides.$inferSelect;
