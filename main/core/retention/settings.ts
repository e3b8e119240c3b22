import { inArray } from 'drizzle-orm';
import { z } from 'zod';
import { instanceSettings } from '../heartbeat/schema.js';
import type { Queryable } from '../context.js';

/**
 * Retention settings, kept in instance_settings beside the run cap:
 * - transcriptRetentionDays: transcripts of runs that finished longer ago are deleted (the run row
 *   stays, with its size and transcriptPurgedAt); 0 keeps them forever.
 * - backupRetentionCount: how many pre-migration backups are kept, newest first; 0 keeps all.
 * - workspaceRetentionHours: the workspace of a done or cancelled issue that holds no unmerged or
 *   uncommitted work is removed this long after the issue last changed (at once when merged).
 */
export const RETENTION_DEFAULTS = { transcriptRetentionDays: 30, backupRetentionCount: 5, workspaceRetentionHours: 24 } as const;
export type RetentionSettings = { transcriptRetentionDays: number; backupRetentionCount: number; workspaceRetentionHours: number };

export const RetentionSettingsShape = {
  transcriptRetentionDays: z.int().min(0).max(36_500).describe(`Days run transcripts are kept after the run ends; 0 = forever (default ${RETENTION_DEFAULTS.transcriptRetentionDays})`),
  backupRetentionCount: z.int().min(0).max(1000).describe(`Pre-migration database backups kept, newest first; 0 = all (default ${RETENTION_DEFAULTS.backupRetentionCount})`),
  workspaceRetentionHours: z.int().min(0).max(876_000).describe(`Hours a finished issue's workspace without unmerged or uncommitted work is kept (merged ones go at once; default ${RETENTION_DEFAULTS.workspaceRetentionHours})`),
};
export const PutRetentionShape = {
  transcriptRetentionDays: RetentionSettingsShape.transcriptRetentionDays.optional(),
  backupRetentionCount: RetentionSettingsShape.backupRetentionCount.optional(),
  workspaceRetentionHours: RetentionSettingsShape.workspaceRetentionHours.optional(),
};

const KEYS = Object.keys(RETENTION_DEFAULTS) as (keyof RetentionSettings)[];

export function readRetentionSettings(db: Queryable): RetentionSettings {
  const rows = db.select().from(instanceSettings).where(inArray(instanceSettings.key, KEYS)).all();
  const out: RetentionSettings = { ...RETENTION_DEFAULTS };
  for (const r of rows) {
    // A value that is not a whole number ≥ 0 (edited by hand) falls back to the default.
    if (typeof r.value === 'number' && Number.isInteger(r.value) && r.value >= 0) out[r.key as keyof RetentionSettings] = r.value;
  }
  return out;
}

/** Stores the given settings; returns whether anything was given. */
export function writeRetentionSettings(db: Queryable, at: string, input: Partial<Record<keyof RetentionSettings, number | undefined>>): boolean {
  let changed = false;
  for (const key of KEYS) {
    const value = input[key];
    if (value === undefined) continue;
    db.insert(instanceSettings).values({ key, value, updatedAt: at }).onConflictDoUpdate({ target: instanceSettings.key, set: { value, updatedAt: at } }).run();
    changed = true;
  }
  return changed;
}
