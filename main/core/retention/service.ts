import { rawSqlite } from '../export/scope.js';
import type { CoreContext } from '../context.js';
import { readRetentionSettings } from './settings.js';
import { purgeTranscripts, type PurgeResult } from './transcripts.js';
import { pruneBackups } from './backups.js';
import { enforceTranscriptBudgets, sweepTailSegments } from '../limits/transcript-budget.js';

export const RETENTION_INTERVAL_MS = 24 * 3600 * 1000;

export interface RetentionPass {
  transcripts: PurgeResult;
  backupsDeleted: string[];
}

/** One pass of the retention rules with the settings stored now. */
export function enforceRetention(ctx: Pick<CoreContext, 'db' | 'clock' | 'logger' | 'paths'>): RetentionPass {
  const settings = readRetentionSettings(ctx.db);
  const transcripts = purgeTranscripts(rawSqlite(ctx.db), ctx.paths.runs, ctx.clock.now(), settings.transcriptRetentionDays);
  const backupsDeleted = pruneBackups(ctx.paths.backups, settings.backupRetentionCount).map((b) => b.name);
  sweepTailSegments(ctx);
  enforceTranscriptBudgets(ctx);
  if (transcripts.runs > 0 || backupsDeleted.length > 0) {
    ctx.logger.info('retention: deleted old files', { transcripts: transcripts.runs, transcriptBytes: transcripts.bytes, backups: backupsDeleted.length });
  }
  return { transcripts, backupsDeleted };
}

/** Enforces retention now and then once a day; a failed pass is logged, never fatal. */
export function startRetention(ctx: Pick<CoreContext, 'db' | 'clock' | 'logger' | 'paths'>): { stop(): void } {
  const pass = () => {
    try {
      enforceRetention(ctx);
    } catch (err) {
      ctx.logger.error('retention pass failed', { message: err instanceof Error ? err.message : String(err) });
    }
  };
  pass();
  const timer = setInterval(pass, RETENTION_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
