import { and, gte, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { instanceSettings } from '../heartbeat/schema.js';
import { MAX_UPLOAD_BYTES } from '../assets/service.js';
import type { Queryable } from '../context.js';
import { prepared } from '../db/prepared.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * What one agent, one run or one company may put on this machine. Kept in instance_settings
 * beside the run cap and retention (keys prefixed `limits.`), read on every check so a change
 * applies at once. Budgets of 0 mean "no budget".
 */
export const LIMIT_DEFAULTS = {
  /** Per run: head and tail are kept, the middle is dropped (transcript.ts). */
  transcriptMaxBytes: 50 * MiB,
  /** Per company: the oldest finished runs' transcripts are deleted past it. */
  transcriptCompanyBudgetBytes: 5 * GiB,
  /** Per company: live attachment bytes. */
  attachmentCompanyBudgetBytes: 2 * GiB,
  /** Per company: issue workspaces; finished ones with nothing unmerged go early past it. */
  workspaceCompanyBudgetBytes: 20 * GiB,
  /** Per agent (run tokens and keys alike), in any 60 s window. */
  attachmentUploadsPerMinute: 30,
  attachmentBytesPerMinute: 100 * MiB,
  commentsPerMinute: 30,
} as const;
export type LimitSettings = { -readonly [K in keyof typeof LIMIT_DEFAULTS]: number };

/** Fixed limits: shown with the others, not changed at run time. */
export const FIXED_LIMITS = {
  /** The multipart parser's file limit (the same for logos), set when the server starts. */
  attachmentMaxBytes: MAX_UPLOAD_BYTES,
  /** A comment's body, in bytes of UTF-8. */
  commentMaxBytes: 64 * 1024,
  /** Comments per page of `GET /api/issues/{id}/comments`: default and largest. */
  commentPageDefault: 100,
  commentPageMax: 500,
  /**
   * Agents of one company, terminated ones included. The spec answers the agent list, the org chart
   * and the spend per agent whole, with no paging: this keeps each of them a bounded answer.
   */
  agentsPerCompany: 1000,
  /** Projects of one company: the spend per project answers every one of them, ordered by spend. */
  projectsPerCompany: 1000,
} as const;

const bytes = (min: number, max: number, what: string, def: number) => z.int().min(min).max(max).describe(`${what} (default ${def})`);

export const LimitSettingsShape = {
  transcriptMaxBytes: bytes(MiB, 10 * GiB, 'Bytes kept of one run transcript: the first and last halves, a marker between', LIMIT_DEFAULTS.transcriptMaxBytes),
  transcriptCompanyBudgetBytes: bytes(0, 1024 * GiB, "Bytes of transcripts a company keeps; the oldest finished runs' transcripts are deleted past it; 0 = no budget", LIMIT_DEFAULTS.transcriptCompanyBudgetBytes),
  attachmentCompanyBudgetBytes: bytes(0, 1024 * GiB, 'Bytes of attachments a company may hold; an upload past it is 413; 0 = no budget', LIMIT_DEFAULTS.attachmentCompanyBudgetBytes),
  workspaceCompanyBudgetBytes: bytes(
    0,
    1024 * GiB,
    "Bytes of issue workspaces a company keeps; past it, finished issues' workspaces holding nothing unmerged or uncommitted are removed before their retention time, oldest first; 0 = no budget",
    LIMIT_DEFAULTS.workspaceCompanyBudgetBytes,
  ),
  attachmentUploadsPerMinute: z.int().min(1).max(100_000).describe(`Uploads one agent may make in any 60 s (default ${LIMIT_DEFAULTS.attachmentUploadsPerMinute})`),
  attachmentBytesPerMinute: bytes(MAX_UPLOAD_BYTES, 1024 * GiB, 'Bytes one agent may upload in any 60 s; at least the per-file size', LIMIT_DEFAULTS.attachmentBytesPerMinute),
  commentsPerMinute: z.int().min(1).max(100_000).describe(`Comments one agent may post in any 60 s (default ${LIMIT_DEFAULTS.commentsPerMinute})`),
};

export const Limits = z
  .object({
    ...LimitSettingsShape,
    attachmentMaxBytes: z.int().describe('Bytes of one uploaded file (fixed)'),
    commentMaxBytes: z.int().describe('Bytes of UTF-8 in one comment (fixed)'),
    commentPageDefault: z.int().describe('Comments per page when no limit is given (fixed)'),
    commentPageMax: z.int().describe('Largest comment page (fixed)'),
    agentsPerCompany: z.int().describe('Agents one company may have, terminated ones included (fixed)'),
    projectsPerCompany: z.int().describe('Projects one company may have (fixed)'),
  })
  .meta({ id: 'Limits' });

export const PutLimitsBody = z.strictObject(Object.fromEntries(Object.entries(LimitSettingsShape).map(([k, v]) => [k, v.optional()])) as { [K in keyof typeof LimitSettingsShape]: z.ZodOptional<(typeof LimitSettingsShape)[K]> });

const NAMES = Object.keys(LIMIT_DEFAULTS) as (keyof LimitSettings)[];
const KEY_PREFIX = 'limits.';
/** The character after '.', so `[KEY_PREFIX, KEY_PREFIX_END)` is every key starting with the prefix. */
const KEY_PREFIX_END = 'limits/';
const keyOf = (name: keyof LimitSettings) => `${KEY_PREFIX}${name}`;

export function readLimitSettings(db: Queryable): LimitSettings {
  // Read before every comment and upload, so prepared once (issue 17). One range of the key index
  // (every key from `limits.` up to `limits/`, the next character) rather than a probe per name:
  // a third of the time.
  const rows = prepared(db, 'limits.settings', (d) =>
    d
      // The stored JSON text, decoded below only for the names this build knows.
      .select({ key: instanceSettings.key, text: sql<string>`${instanceSettings.value}` })
      .from(instanceSettings)
      .where(and(gte(instanceSettings.key, KEY_PREFIX), lt(instanceSettings.key, KEY_PREFIX_END)))
      .prepare(),
  ).all();
  const out: LimitSettings = { ...LIMIT_DEFAULTS };
  for (const r of rows) {
    const name = r.key.slice(KEY_PREFIX.length) as keyof LimitSettings;
    // Only the known names; a value edited by hand into something else than a whole number ≥ 0
    // (or into text that is not JSON at all) falls back to the default.
    if (!Object.hasOwn(LIMIT_DEFAULTS, name)) continue;
    let value: unknown;
    try {
      value = JSON.parse(r.text);
    } catch {
      continue;
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) out[name] = value;
  }
  return out;
}

export const readLimits = (db: Queryable) => ({ ...readLimitSettings(db), ...FIXED_LIMITS });

/** Stores the given limits; returns whether anything was given. */
export function writeLimitSettings(db: Queryable, at: string, input: Partial<Record<keyof LimitSettings, number | undefined>>): boolean {
  let changed = false;
  for (const name of NAMES) {
    const value = input[name];
    if (value === undefined) continue;
    const key = keyOf(name);
    db.insert(instanceSettings).values({ key, value, updatedAt: at }).onConflictDoUpdate({ target: instanceSettings.key, set: { value, updatedAt: at } }).run();
    changed = true;
  }
  return changed;
}
