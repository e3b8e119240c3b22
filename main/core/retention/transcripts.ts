import { existsSync, statSync, unlinkSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { storedTranscriptPathOrNull } from '../heartbeat/transcript-file.js';

export interface PurgeResult {
  runs: number;
  bytes: number;
}

/**
 * Deletes the transcript files of runs that ended before `now - days` and marks their rows
 * (transcriptPurgedAt; transcriptBytes keeps the size, so the UI can say what was there). The file
 * goes first: a crash in between leaves a row that the next pass marks, never a mark on a file that
 * still exists. Active runs are never touched, whatever their age.
 */
export function purgeTranscripts(sqlite: Database.Database, runsDir: string, now: Date, days: number): PurgeResult {
  if (days <= 0) return { runs: 0, bytes: 0 };
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  const select = sqlite.prepare(
    `SELECT id FROM heartbeat_runs
      WHERE finished_at IS NOT NULL AND finished_at < ? AND transcript_purged_at IS NULL AND transcript_bytes > 0
        AND status NOT IN ('queued', 'running')
      LIMIT 500`,
  );
  const mark = sqlite.prepare('UPDATE heartbeat_runs SET transcript_purged_at = ? WHERE id = ?');
  const at = now.toISOString();
  const result: PurgeResult = { runs: 0, bytes: 0 };
  for (;;) {
    const batch = select.all(cutoff) as { id: string }[];
    if (batch.length === 0) return result;
    for (const { id } of batch) {
      // A run id that leads outside runs/ names no transcript of ours: the row is marked, nothing deleted.
      const file = storedTranscriptPathOrNull(runsDir, id);
      if (file && existsSync(file)) {
        result.bytes += statSync(file).size;
        unlinkSync(file);
      }
    }
    sqlite.transaction(() => {
      for (const { id } of batch) mark.run(at, id);
    })();
    result.runs += batch.length;
  }
}
