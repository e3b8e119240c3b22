import { z } from 'zod';
import { rawSqlite } from '../export/scope.js';
import type { CoreContext } from '../context.js';
import { readLimitSettings } from './settings.js';

export const CompanyDiskUse = z
  .object({
    companyId: z.string(),
    name: z.string(),
    transcriptBytes: z.int().describe('Transcripts still on disk, by the run records'),
    transcriptBudgetBytes: z.int().describe('limits.transcriptCompanyBudgetBytes; 0 = no budget'),
    attachmentBytes: z.int().describe('Live attachments'),
    attachmentBudgetBytes: z.int().describe('limits.attachmentCompanyBudgetBytes; 0 = no budget'),
    workspaceBytes: z.int().describe("Issue workspaces (the agents' clones; objects shared with the founder's repository are not counted)"),
    workspaceBudgetBytes: z.int().describe('limits.workspaceCompanyBudgetBytes; 0 = no budget'),
  })
  .meta({ id: 'CompanyDiskUse' });
export type CompanyDiskUse = z.infer<typeof CompanyDiskUse>;

/**
 * Each company's transcripts, attachments and workspaces against its budgets, largest first.
 * Workspace bytes are measured on disk by the workspaces service and passed in by company id.
 */
export function companyDiskUse(ctx: Pick<CoreContext, 'db'>, workspaceBytes: ReadonlyMap<string, number> = new Map()): CompanyDiskUse[] {
  const limits = readLimitSettings(ctx.db);
  const rows = rawSqlite(ctx.db)
    .prepare(
      `SELECT c.id AS companyId, c.name AS name,
              (SELECT coalesce(sum(r.transcript_bytes), 0) FROM heartbeat_runs r WHERE r.company_id = c.id AND r.transcript_purged_at IS NULL) AS transcriptBytes,
              (SELECT coalesce(sum(a.byte_size), 0) FROM assets a WHERE a.company_id = c.id AND a.kind = 'attachment' AND a.deleted_at IS NULL) AS attachmentBytes
         FROM companies c`,
    )
    .all() as Pick<CompanyDiskUse, 'companyId' | 'name' | 'transcriptBytes' | 'attachmentBytes'>[];
  const total = (c: CompanyDiskUse) => c.transcriptBytes + c.attachmentBytes + c.workspaceBytes;
  return rows
    .map((r) => ({
      ...r,
      transcriptBudgetBytes: limits.transcriptCompanyBudgetBytes,
      attachmentBudgetBytes: limits.attachmentCompanyBudgetBytes,
      workspaceBytes: workspaceBytes.get(r.companyId) ?? 0,
      workspaceBudgetBytes: limits.workspaceCompanyBudgetBytes,
    }))
    .sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
}
