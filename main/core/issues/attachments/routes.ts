import { z } from 'zod';
import type { RouteRegistrar } from '../../kernel/route.js';
import { errorResponses } from '../../kernel/route.js';
import { ServiceError } from '../../kernel/errors.js';
import { MAX_UPLOAD_BYTES } from '../../assets/service.js';
import { receiveFile } from '../../assets/upload.js';
import { sendAsset } from '../../assets/serve.js';
import { limitsOf, retryAfterOnError } from '../../limits/service.js';
import { ArrayPageQuery, ARRAY_PAGE_DESCRIPTION, sendArrayPage } from '../../kernel/header-page.js';
import { IssueIdParams } from '../params.js';
import { Attachment, ATTACHMENT_FIELD, AttachmentIdParams, UploadAttachmentParams } from './contract.js';
import { ATTACHMENT_CONTENT_TYPES, dispositionFor, verifiedAttachmentType } from './content-types.js';

const tags = ['issues'];

export const attachmentsRoutes: RouteRegistrar = (app, s) => {
  app.post('/api/companies/:companyId/issues/:issueId/attachments', {
    onError: retryAfterOnError,
    schema: {
      tags,
      summary: `Attach a file: multipart/form-data with one file part named "${ATTACHMENT_FIELD}", at most ${MAX_UPLOAD_BYTES} bytes`,
      description: `Allowed types (checked against the bytes): ${ATTACHMENT_CONTENT_TYPES.join(', ')}. Anything else is 415 unsupported_attachment_type. Past the company's attachment budget: 413 attachment_budget_exceeded; past the per-agent upload rate (uploads and bytes per minute): 429 rate_limited with Retry-After.`,
      params: UploadAttachmentParams,
      response: { 201: Attachment, ...errorResponses },
    },
    handler: async (req, reply) => {
      const issue = s.attachments.targetIssue(req.actor, req.params.companyId, req.params.issueId);
      // An agent already at its upload rate is turned away before its body is read.
      limitsOf(s.ctx).uploadStart(req.actor);
      const file = await receiveFile(req, { what: 'the attachment', fieldName: ATTACHMENT_FIELD });
      const contentType = await verifiedAttachmentType(file.bytes, file.declaredType);
      if (!contentType) {
        throw new ServiceError(
          415,
          'unsupported_attachment_type',
          `The file must be one of ${ATTACHMENT_CONTENT_TYPES.join(', ')}, and its bytes must match its declared type`,
          { declared: file.declaredType },
        );
      }
      return reply.code(201).send(s.attachments.create(req.actor, issue, { bytes: file.bytes, fileName: file.fileName, contentType }));
    },
  });

  app.get('/api/issues/:issueId/attachments', {
    schema: { tags, summary: 'Attachments of the issue, oldest first, one page at a time', description: ARRAY_PAGE_DESCRIPTION, params: IssueIdParams, querystring: z.strictObject(ArrayPageQuery), response: { 200: z.array(Attachment), ...errorResponses } },
    handler: async (req, reply) => sendArrayPage(req, reply, req.query.limit, s.attachments.list(req.actor, req.params.issueId, req.query)),
  });

  app.get('/api/attachments/:attachmentId/content', {
    schema: {
      tags,
      summary: 'Attachment bytes: nosniff, sandboxing CSP; raster images inline, everything else (SVG too) as a download',
      params: AttachmentIdParams,
      response: { 200: z.any().describe('The file bytes'), ...errorResponses },
    },
    handler: async (req, reply) => {
      const row = s.attachments.get(req.actor, req.params.attachmentId);
      return sendAsset(reply, s.assets, row, { disposition: dispositionFor(row.contentType) });
    },
  });

  app.delete('/api/attachments/:attachmentId', {
    schema: {
      tags,
      summary: 'Delete an attachment (its uploader or the board); the bytes are removed',
      params: AttachmentIdParams,
      response: { 204: z.null().describe('Deleted'), ...errorResponses },
    },
    handler: async (req, reply) => {
      s.attachments.remove(req.actor, req.params.attachmentId);
      return reply.code(204).send(null);
    },
  });
};
