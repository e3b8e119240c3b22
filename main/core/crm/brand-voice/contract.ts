import { z } from 'zod';
import { Timestamp } from '../../kernel/common-contract.js';
import { SecretUri } from '../../secrets/refs.js';
import { BRAND_VOICE_VERDICTS } from './schema.js';

export const Sha256Hex = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be a 64-character hex sha256')
  .transform((s) => s.toLowerCase());

/** Drafts are social posts, e-mails, articles: 200,000 characters is far above any of them and well under the JSON body limit. */
export const MAX_DRAFT_CHARS = 200_000;

export const BrandVoiceCheckBody = z.strictObject({
  contentSha256: Sha256Hex.describe('sha256 hex of the UTF-8 bytes of `draft` (the cache key)'),
  draft: z.string().min(1, 'must not be empty').max(MAX_DRAFT_CHARS),
});
export type BrandVoiceCheckBody = z.infer<typeof BrandVoiceCheckBody>;

export const BrandVoiceVerdict = z.enum(BRAND_VOICE_VERDICTS);

export const BrandVoiceFinding = z.strictObject({
  severity: z.enum(['info', 'minor', 'major']),
  message: z.string().min(1).max(2000),
  excerpt: z.string().max(2000).optional(),
});

/** What the model must answer (validated; anything else is a 502 and nothing is cached). */
export const CheckerAnswer = z.object({
  verdict: BrandVoiceVerdict,
  score: z.int().min(0).max(100),
  summary: z.string().min(1).max(4000),
  findings: z.array(BrandVoiceFinding).max(50).default([]),
});
export type CheckerAnswer = z.infer<typeof CheckerAnswer>;

export const BrandVoiceCheckResult = z.object({
  contentSha256: z.string(),
  verdict: BrandVoiceVerdict,
  score: z.int(),
  summary: z.string(),
  findings: z.array(BrandVoiceFinding),
  model: z.string(),
  checkedAt: Timestamp,
  hitCount: z.int().describe('Cache hits served for this hash so far'),
  cached: z.boolean().describe('True when this answer came from the cache (no model call)'),
});
export type BrandVoiceCheckResult = z.infer<typeof BrandVoiceCheckResult>;

export const BrandVoiceSettingsBody = z.strictObject({
  endpointUrl: z.url({ protocol: /^https?$/ }).max(2000).describe('Full URL of an OpenAI-compatible chat-completions endpoint'),
  model: z.string().trim().min(1).max(200),
  apiKeyRef: SecretUri.nullable().default(null).describe('secret://<secretId>:<latest|n>; null for an endpoint without a key'),
  guidelines: z.string().trim().min(1, 'must not be empty').max(32_000).describe('The brand-voice guide the model judges drafts against'),
  timeoutMs: z.int().min(1000).max(300_000).default(60_000),
});
export type BrandVoiceSettingsBody = z.infer<typeof BrandVoiceSettingsBody>;

export const BrandVoiceSettings = z.object({
  configured: z.boolean(),
  endpointUrl: z.string().nullable(),
  model: z.string().nullable(),
  apiKeyRef: z.string().nullable(),
  guidelines: z.string().nullable(),
  timeoutMs: z.int().nullable(),
  updatedAt: Timestamp.nullable(),
  cachedVerdicts: z.int().describe('Verdicts in the cache for this company'),
});
export type BrandVoiceSettings = z.infer<typeof BrandVoiceSettings>;

// ---- The brand-voice guide (our addition): the built-in checker's rules, edited by the board.

const Phrase = z.string().trim().min(1, 'must not be empty').max(500);
const Length = z.int().min(1).max(MAX_DRAFT_CHARS).nullable().default(null);

export const BrandVoiceModelCheck = z
  .strictObject({
    adapterType: z.string().min(1).max(100).describe('An adapter type whose CLI runs in print mode (e.g. vendor_a_local: `claude -p`)'),
    adapterConfig: z
      .record(z.string(), z.unknown())
      .default({})
      .describe('Validated by the adapter type (command, model, env, timeoutSec...); tools are better off: e.g. {"allowedTools": [], "maxTurns": 1}'),
  })
  .describe('A model-backed check through a logged-in coding CLI; its final answer must be the verdict JSON');

export const BrandVoiceGuideBody = z
  .strictObject({
    toneNotes: z.string().max(32_000).default('').describe('How the company sounds; read by people and by the model-backed check'),
    bannedPhrases: z.array(Phrase).max(500).default([]).describe('Case-insensitive, whole words; each occurrence is a major finding'),
    requiredClaims: z.array(Phrase).max(100).default([]).describe('Each claim the draft must state (case-insensitive, whole words); a missing one is a major finding'),
    minLength: Length.describe('Characters of the trimmed draft; null = no bound'),
    maxLength: Length.describe('Characters of the trimmed draft; null = no bound'),
    modelCheck: BrandVoiceModelCheck.nullable().default(null).describe('null = rules only'),
  })
  .refine((g) => g.minLength === null || g.maxLength === null || g.minLength <= g.maxLength, { message: 'must be at least minLength', path: ['maxLength'] });
export type BrandVoiceGuideBody = z.infer<typeof BrandVoiceGuideBody>;

export const BrandVoiceGuide = z
  .object({
    toneNotes: z.string(),
    bannedPhrases: z.array(z.string()),
    requiredClaims: z.array(z.string()),
    minLength: z.int().nullable(),
    maxLength: z.int().nullable(),
    modelCheck: z.object({ adapterType: z.string(), adapterConfig: z.record(z.string(), z.unknown()) }).nullable(),
    updatedAt: Timestamp.nullable().describe('null: the board has not written a guide yet (the empty guide applies)'),
  })
  .meta({ id: 'BrandVoiceGuide' });
export type BrandVoiceGuide = z.infer<typeof BrandVoiceGuide>;
