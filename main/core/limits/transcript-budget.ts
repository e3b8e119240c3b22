import { existsSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { rawSqlite } from '../export/scope.js';
import type { CoreContext } from '../context.js';
import { transcriptPath } from '../heartbeat/transcript.js';
import { readLimitSettings } from './settings.js';

export interface BudgetPurge {
  runs: number;
  bytes: number;
}

/** Bytes of transcripts a company still holds on disk, by the run records. */
export function companyTranscriptBytes(ctx: Pick<CoreContext, 'db'>, companyId: string): number {
  const row = rawSqlite(ctx.db)
    .prepare('SELECT coalesce(sum(transcript_bytes), 0) AS n FROM heartbeat_runs WHERE company_id = ? AND transcript_purged_at IS NULL')
    .get(companyId) as { n: number };
  return row.n;
}

/**
 * Keeps a company's transcripts within its budget: while over it, the transcript of its oldest
 * finished run is deleted (the row stays, marked like retention does, so its size is still
 * known). The newest finished run keeps its transcript whatever its size, and active runs are
 * never touched. File first, then the mark: a crash in between is repaired by the next pass.
 */
export function enforceTranscriptBudget(ctx: Pick<CoreContext, 'db' | 'clock' | 'paths'>, companyId: string, budgetBytes: number): BudgetPurge {
  const result: BudgetPurge = { runs: 0, bytes: 0 };
  if (budgetBytes <= 0) return result;
  let used = companyTranscriptBytes(ctx, companyId);
  if (used <= budgetBytes) return result;
  const sqlite = rawSqlite(ctx.db);
  const candidates = sqlite
    .prepare(
      `SELECT id, transcript_bytes AS bytes FROM heartbeat_runs
        WHERE company_id = ? AND transcript_purged_at IS NULL AND transcript_bytes > 0
          AND status NOT IN ('queued', 'running') AND finished_at IS NOT NULL
        ORDER BY finished_at ASC, id ASC`,
    )
    .all(companyId) as { id: string; bytes: number }[];
  const mark = sqlite.prepare('UPDATE heartbeat_runs SET transcript_purged_at = ? WHERE id = ?');
  const at = ctx.clock.now().toISOString();
  for (const run of candidates.slice(0, -1)) {
    if (used <= budgetBytes) break;
    const file = transcriptPath(ctx.paths.runs, run.id);
    if (existsSync(file)) unlinkSync(file);
    mark.run(at, run.id);
    used -= run.bytes;
    result.runs++;
    result.bytes += run.bytes;
  }
  return result;
}

/**
 * Removes the tail segments (`<run>.jsonl.tail0/1`) a crashed server left behind: only a live
 * writer holds them, and they hold nothing the transcript promised. Segments of runs still
 * queued or running are left alone.
 */
export function sweepTailSegments(ctx: Pick<CoreContext, 'db' | 'paths'>): number {
  if (!existsSync(ctx.paths.runs)) return 0;
  const active = rawSqlite(ctx.db).prepare("SELECT 1 FROM heartbeat_runs WHERE id = ? AND status IN ('queued', 'running')");
  let removed = 0;
  for (const name of readdirSync(ctx.paths.runs)) {
    const m = /^(.+)\.jsonl\.tail[01]$/.exec(name);
    if (!m || active.get(m[1])) continue;
    rmSync(path.join(ctx.paths.runs, name), { force: true });
    removed++;
  }
  return removed;
}

/** Every company's transcripts within the budget in force (the retention pass, a changed budget). */
export function enforceTranscriptBudgets(ctx: Pick<CoreContext, 'db' | 'clock' | 'paths'>): BudgetPurge {
  const budget = readLimitSettings(ctx.db).transcriptCompanyBudgetBytes;
  const total: BudgetPurge = { runs: 0, bytes: 0 };
  for (const { id } of rawSqlite(ctx.db).prepare('SELECT id FROM companies').all() as { id: string }[]) {
    const purged = enforceTranscriptBudget(ctx, id, budget);
    total.runs += purged.runs;
    total.bytes += purged.bytes;
  }
  return total;
}
