import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { AssetRow } from './schema.js';
import { MAX_UPLOAD_BYTES } from './service.js';
import { verifiedImageType, LOGO_CONTENT_TYPES } from './image-type.js';
import { assertBoard } from '../access.js';
import { badRequest, ServiceError } from '../errors.js';
import { requireCompany } from '../companies/service.js';

/**
 * Receives one image file from a multipart request and stores it as a logo asset of the company.
 * The declared content type must be allowed and must match the bytes.
 */
export async function receiveLogo(req: FastifyRequest, s: Services, companyId: string): Promise<AssetRow> {
  assertBoard(req.actor, 'upload a company logo');
  requireCompany(s.ctx.db, req.actor, companyId);
  if (!req.isMultipart()) throw badRequest('unsupported_media_type', 'Send the logo as multipart/form-data with one file part');
  const part = await req.file({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 } });
  if (!part) throw badRequest('missing_file', 'The multipart body has no file part');
  const bytes = await part.toBuffer();
  if (part.file.truncated) throw new ServiceError(413, 'payload_too_large', `The file is larger than ${MAX_UPLOAD_BYTES} bytes`);
  if (bytes.length === 0) throw badRequest('empty_file', 'The file is empty');
  const contentType = await verifiedImageType(bytes, part.mimetype);
  if (!contentType) {
    throw new ServiceError(415, 'unsupported_image', `The file must be one of ${LOGO_CONTENT_TYPES.join(', ')}, and its bytes must match its declared type`, {
      declared: part.mimetype,
    });
  }
  return s.assets.store(req.actor, { companyId, kind: 'logo', contentType, originalName: part.filename || 'logo', bytes });
}
