import { rmSync } from 'node:fs';
import { and, eq, inArray } from 'drizzle-orm';
import type { Actor } from '../kernel/actor.js';
import { assertBoard, assertCompanyAccess } from '../kernel/access.js';
import { conflict, notFound } from '../kernel/errors.js';
import { inTransaction, type CoreContext } from '../context.js';
import { heartbeatRuns, ACTIVE_RUN_STATUSES } from '../heartbeat/schema.js';
import { discoverScope, quoteIdent, rawSqlite } from '../export/scope.js';
import { companyFolder } from '../assets/company-files.js';
import { withTempOnDisk } from '../db/connection.js';
import { storedTranscriptPathOrNull } from '../heartbeat/transcript-file.js';
import { companies } from './schema.js';

/**
 * Deletes a company and everything it holds, for good: only an archived company (archive is the
 * reversible step, and it stops new heartbeats) with no run queued or running (a live agent
 * process would write into rows being removed). Its rows are found the way an export finds them
 * (export/scope.ts), so a table added later is deleted without anyone listing it here. Files go
 * after the commit: a crash in between leaves files no row owns, never a row without its file.
 */
export function deleteCompany(ctx: CoreContext, actor: Actor, companyId: string): void {
  assertBoard(actor, 'delete a company');
  const sqlite = rawSqlite(ctx.db);
  // Every row of the company in one transaction: its statement journals go to disk, not memory.
  const runIds = withTempOnDisk(sqlite, () => inTransaction(ctx, (tx) => {
    assertCompanyAccess(actor, companyId);
    const row = tx.select().from(companies).where(eq(companies.id, companyId)).get();
    if (!row) throw notFound('Company');
    if (row.status !== 'archived') {
      throw conflict('company_not_archived', `Archive the company "${row.name}" before deleting it`, { status: row.status });
    }
    const active = tx
      .select({ id: heartbeatRuns.id })
      .from(heartbeatRuns)
      .where(and(eq(heartbeatRuns.companyId, companyId), inArray(heartbeatRuns.status, [...ACTIVE_RUN_STATUSES])))
      .all();
    if (active.length > 0) {
      throw conflict('company_has_active_runs', `${active.length} run(s) of "${row.name}" are still queued or running; cancel them or wait, then delete`, { runs: active.length });
    }
    const runs = tx.select({ id: heartbeatRuns.id }).from(heartbeatRuns).where(eq(heartbeatRuns.companyId, companyId)).all();
    // Keys are checked at commit, so tables can go in any order; the search index first, because
    // the issue triggers that would clear it look it up through search_docs, itself a company table.
    sqlite.pragma('defer_foreign_keys = ON');
    sqlite.prepare('DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_docs WHERE company_id = ?)').run(companyId);
    const scope = discoverScope(sqlite);
    // Children found through a parent come after it in the scope: deleting in reverse removes them
    // while their parents' rows can still be selected.
    const ordered = [...scope.all.filter((t) => t.name !== 'companies').reverse(), scope.all.find((t) => t.name === 'companies')!];
    for (const t of ordered) sqlite.prepare(`DELETE FROM ${quoteIdent(t.name)} WHERE ${t.where}`).run(...Array<string>(t.params).fill(companyId));
    ctx.logger.info('company deleted', { companyId, name: row.name, runs: runs.length });
    return runs.map((r) => r.id);
  }));
  rmSync(companyFolder(ctx.paths.attachments, companyId), { recursive: true, force: true });
  for (const id of runIds) {
    const file = storedTranscriptPathOrNull(ctx.paths.runs, id);
    if (file) rmSync(file, { force: true });
  }
}
