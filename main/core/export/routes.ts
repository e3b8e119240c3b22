import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { RouteRegistrar } from '../kernel/route.js';
import { errorResponses } from '../kernel/route.js';
import { CompanyIdParams, Id } from '../kernel/common-contract.js';
import { assertBoard } from '../kernel/access.js';
import { badRequest, ServiceError } from '../kernel/errors.js';
import { contentDisposition } from '../assets/serve.js';
import { createExportService } from './service.js';
import { makeStaging, removeStaging } from './staging.js';

const tags = ['export'];

/** An export holds a company's transcripts and attachments; far above the 10 MiB upload limit. */
export const MAX_IMPORT_BYTES = 4 * 1024 ** 3;

const ImportResult = z
  .object({
    companyId: Id,
    name: z.string(),
    issuePrefix: z.string(),
    idsPreserved: z.boolean().describe('Always false: every imported record gets a fresh id'),
    tables: z.record(z.string(), z.int()).describe('Rows imported per table'),
    files: z.object({ attachments: z.int(), runs: z.int() }),
    secretsWithoutValues: z.array(z.string()).describe('Secrets imported by name only: set their values again'),
  })
  .meta({ id: 'CompanyImportResult' });

export const exportRoutes: RouteRegistrar = (app, s) => {
  const service = createExportService(s.ctx);

  app.get('/api/companies/:companyId/export', {
    schema: {
      tags,
      summary: 'Download the company as one .tar.gz: its records, documents, attachments and run transcripts; secret values are never included (board)',
      params: CompanyIdParams,
      response: { 200: z.any().describe('application/gzip'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const { file, dir, manifest } = await service.exportToTemp(req.actor, req.params.companyId);
      const stream = createReadStream(file);
      const cleanup = () => rmSync(dir, { recursive: true, force: true });
      stream.once('close', cleanup);
      stream.once('error', cleanup);
      const day = manifest.exportedAt.slice(0, 10);
      return reply
        .header('content-type', 'application/gzip')
        .header('content-length', statSync(file).size)
        .header('content-disposition', contentDisposition('attachment', `${manifest.company.issuePrefix.toLowerCase()}-${day}.tar.gz`))
        .send(stream);
    },
  });

  app.post('/api/companies/import', {
    schema: {
      tags,
      summary: 'Import a company export (multipart/form-data, one file part named "file") as a new company (board)',
      response: { 201: ImportResult, ...errorResponses },
    },
    handler: async (req, reply) => {
      assertBoard(req.actor, 'import a company');
      if (!req.isMultipart()) throw badRequest('unsupported_media_type', 'Send the export as multipart/form-data with one file part named "file"');
      // The upload waits in the import staging area, never beside the live data.
      const dir = makeStaging(s.ctx.paths.home, 'upload-');
      try {
        const file = path.join(dir, 'import.tar.gz');
        let received = false;
        try {
          for await (const part of req.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 10 } })) {
            if (part.type !== 'file') continue;
            if (part.fieldname !== 'file') {
              part.file.resume();
              throw badRequest('missing_file', `The multipart body must carry one file part named "file"; got "${part.fieldname}"`);
            }
            await pipeline(part.file, createWriteStream(file, { mode: 0o600 }));
            if (part.file.truncated) throw new ServiceError(413, 'payload_too_large', `The export is larger than ${MAX_IMPORT_BYTES} bytes`);
            received = true;
          }
        } catch (err) {
          if (err instanceof ServiceError || typeof (err as { code?: unknown })?.code === 'string') throw err;
          throw badRequest('invalid_multipart', `The multipart body is malformed: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (!received) throw badRequest('missing_file', 'The multipart body has no file part named "file"');
        return reply.code(201).send(await service.importFile(req.actor, file));
      } finally {
        removeStaging(dir);
      }
    },
  });
};
