import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { rawSqlite } from './scope.js';
import type { CoreContext } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';
import { CompanyNotFoundError, currentSchemaTag, exportCompany } from './export.js';
import { importCompany, journalTags, type ImportResult } from './import.js';
import type { ExportManifest } from './format.js';

/** Export and import of whole companies; the board only (an export holds everything a company has). */
export function createExportService(ctx: CoreContext) {
  const sqlite = () => rawSqlite(ctx.db);
  return {
    /** Writes the export into a fresh temporary folder inside the home; the caller removes `dir`. */
    async exportToTemp(actor: Actor, companyId: string): Promise<{ file: string; dir: string; manifest: ExportManifest }> {
      assertBoard(actor, 'export a company');
      const dir = mkdtempSync(path.join(ctx.paths.home, '.download-'));
      const file = path.join(dir, 'company.tar.gz');
      try {
        const manifest = await exportCompany(sqlite(), ctx.paths, companyId, file, { schemaTag: currentSchemaTag(sqlite(), journalTags()), now: ctx.clock.now() });
        return { file, dir, manifest };
      } catch (err) {
        rmSync(dir, { recursive: true, force: true });
        if (err instanceof CompanyNotFoundError) throw notFound('Company');
        throw err;
      }
    },

    importFile(actor: Actor, file: string): Promise<ImportResult> {
      assertBoard(actor, 'import a company');
      return importCompany(ctx, ctx.paths, file, actor);
    },
  };
}
