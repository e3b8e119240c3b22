import type { FastifyRequest } from 'fastify';
import type { RouteServices } from '../kernel/route.js';
import type { AssetRow } from './schema.js';
import { MAX_UPLOAD_BYTES } from './service.js';
import { verifiedImageType, LOGO_CONTENT_TYPES } from './image-type.js';
import { assertBoard } from '../kernel/access.js';
import { badRequest, ServiceError } from '../kernel/errors.js';
import { assertCompany } from '../companies/service.js';

export interface ReceivedFile {
  bytes: Buffer;
  /** As the client sent it; sanitised only when stored (safeFileName). */
  fileName: string;
  /** The part's declared Content-Type, unverified. */
  declaredType: string;
}

export interface ReceiveOptions {
  /** What the error messages call the upload ("the logo", "the attachment"). */
  what: string;
  /** When set, the one file part must have this field name; logos accept any name. */
  fieldName?: string;
}

/**
 * Reads the single file part of a multipart request into memory (at most MAX_UPLOAD_BYTES, so a
 * buffer is fine and lets the type be checked against the bytes before anything is written).
 * A second file part fails with 400 `too_many_files` (multipart `files: 1` limit).
 */
export async function receiveFile(req: FastifyRequest, options: ReceiveOptions): Promise<ReceivedFile> {
  const expected = options.fieldName ? `one file part named "${options.fieldName}"` : 'one file part';
  if (!req.isMultipart()) throw badRequest('unsupported_media_type', `Send ${options.what} as multipart/form-data with ${expected}`);
  let received: ReceivedFile | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10 } })) {
      if (part.type !== 'file') continue;
      // Read even a misnamed part to the end, so the size limit applies and the body is drained.
      const bytes = await part.toBuffer();
      if (part.file.truncated) throw new ServiceError(413, 'payload_too_large', `The file is larger than ${MAX_UPLOAD_BYTES} bytes`);
      if (options.fieldName && part.fieldname !== options.fieldName) {
        throw badRequest('missing_file', `The multipart body must carry ${expected}; got a file part named "${part.fieldname}"`, {
          expectedField: options.fieldName,
        });
      }
      received = { bytes, fileName: part.filename, declaredType: part.mimetype };
    }
  } catch (err) {
    // busboy rejects a truncated body (no closing boundary, a part cut short) with a plain Error,
    // which reached the error handler as a 500. Found by the route fuzzer: a file part without the
    // closing `--boundary--`. Our own errors and Fastify's coded limit errors keep their answers.
    if (err instanceof ServiceError || typeof (err as { code?: unknown })?.code === 'string') throw err;
    throw badRequest('invalid_multipart', `The multipart body is malformed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!received) {
    throw badRequest('missing_file', `The multipart body has no file part; send ${expected}`, options.fieldName ? { expectedField: options.fieldName } : undefined);
  }
  if (received.bytes.length === 0) throw badRequest('empty_file', 'The file is empty');
  return received;
}

/**
 * Receives one image file from a multipart request and stores it as a logo asset of the company.
 * The declared content type must be allowed and must match the bytes.
 */
export async function receiveLogo(req: FastifyRequest, s: RouteServices, companyId: string): Promise<AssetRow> {
  assertBoard(req.actor, 'upload a company logo');
  assertCompany(s.ctx.db, req.actor, companyId);
  const file = await receiveFile(req, { what: 'the logo' });
  const contentType = await verifiedImageType(file.bytes, file.declaredType);
  if (!contentType) {
    throw new ServiceError(415, 'unsupported_image', `The file must be one of ${LOGO_CONTENT_TYPES.join(', ')}, and its bytes must match its declared type`, {
      declared: file.declaredType,
    });
  }
  return s.assets.store(req.actor, { companyId, kind: 'logo', contentType, originalName: file.fileName || 'logo', bytes: file.bytes });
}
