import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { assertBoard } from '../kernel/access.js';
import { diskUsage } from './disk.js';
import { listBackups } from './backups.js';
import { CompanyDiskUse, companyDiskUse } from '../limits/usage.js';

const DiskUsage = z
  .object({
    database: z.int().describe('service.db with its WAL'),
    runs: z.int().describe('Run transcripts'),
    attachments: z.int().describe('Attachments and logos'),
    backups: z.int().describe('Pre-migration database backups'),
    plugins: z.int().describe('Installed adapter plugins'),
    total: z.int(),
    workspaces: z.int().describe('Issue workspaces (the agents\' clones; objects shared with your repository are not counted)'),
    workspacesByCompany: z.array(z.object({ companyId: z.string(), bytes: z.int() })),
    backupFiles: z.array(z.object({ name: z.string(), bytes: z.int(), createdAt: z.string(), schema: z.string().nullable() })),
    companies: z.array(CompanyDiskUse).describe("Each company's transcripts, attachments and workspaces against its budgets"),
  })
  .meta({ id: 'DiskUsage' });

export const systemRoutes: RouteRegistrar = (app, s) => {
  app.get('/api/system/disk', {
    schema: { tags: ['settings'], summary: 'Bytes used in the data home, by kind (board)', response: { 200: DiskUsage, ...errorResponses } },
    handler: (req) => {
      assertBoard(req.actor, 'read disk use');
      const { home: _home, ...usage } = diskUsage(s.ctx.paths.home);
      const byCompany = s.workspaces.diskByCompany();
      return {
        ...usage,
        workspaces: byCompany.reduce((n, c) => n + c.bytes, 0),
        workspacesByCompany: byCompany,
        backupFiles: listBackups(s.ctx.paths.backups).map(({ path: _p, ...b }) => b),
        companies: companyDiskUse(s.ctx, new Map(byCompany.map((c) => [c.companyId, c.bytes]))),
      };
    },
  });
};
