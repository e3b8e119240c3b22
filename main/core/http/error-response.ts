import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ServiceError } from '../kernel/errors.js';
import { fieldProblems, validationError, type ErrorBody, type ZodLikeIssue } from '../kernel/error-contract.js';
import type { Logger } from '../kernel/logger.js';

/** How the server answers with the error contract (kernel/error-contract.ts): framework errors mapped, internals hidden. */
const FRAMEWORK_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'The JSON body is empty' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 400,
    code: 'unsupported_media_type',
    message: 'This route takes a JSON body (Content-Type: application/json)',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The body is larger than this route accepts' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'The file is larger than the upload limit' },
  FST_FILES_LIMIT: { status: 400, code: 'too_many_files', message: 'Send exactly one file' },
  FST_PARTS_LIMIT: { status: 400, code: 'too_many_parts', message: 'Too many multipart parts' },
  FST_FIELDS_LIMIT: { status: 400, code: 'too_many_fields', message: 'Too many multipart fields' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 400,
    code: 'unsupported_media_type',
    message: 'This route takes multipart/form-data',
  },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_url', message: 'The URL is malformed' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', message: 'A path parameter is longer than any valid value' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'bad_request', message: 'The request could not be routed' },
};

/** Maps anything thrown while handling a request to the error contract. */
export function toErrorResponse(err: unknown, logger: Logger, request: FastifyRequest): { status: number; body: ErrorBody } {
  if (err instanceof ServiceError) {
    return { status: err.status, body: { error: err.message, code: err.code, ...(err.details !== undefined ? { details: err.details } : {}) } };
  }
  const fe = err as FastifyError & { validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const issues: ZodLikeIssue[] = fe.validation.map((v) => ({
      code: v.keyword,
      path: v.instancePath.split('/').filter(Boolean),
      message: v.message,
      keys: (v.params as { keys?: string[] }).keys,
    }));
    // Fastify says `querystring`; clients read `query.<name>`, as the rest of the API reports it.
    const location = fe.validationContext === 'querystring' ? 'query' : (fe.validationContext ?? 'body');
    const e = validationError(fieldProblems(location, issues));
    return toErrorResponse(e, logger, request);
  }
  const known = fe?.code ? FRAMEWORK_CODES[fe.code] : undefined;
  if (known) return { status: known.status, body: { error: known.message, code: known.code } };
  if (typeof fe?.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return { status: fe.statusCode, body: { error: 'The request could not be processed', code: 'bad_request' } };
  }
  // Unexpected: log the message and where, never the body, and answer without internals.
  logger.error('unhandled error', {
    method: request.method,
    route: request.routeOptions?.url,
    message: err instanceof Error ? err.message : String(err),
  });
  return { status: 500, body: { error: 'Internal server error', code: 'internal_error' } };
}

export function sendError(reply: FastifyReply, status: number, body: ErrorBody): FastifyReply {
  // Pre-serialized so no response schema can get in the way of an error reaching the client.
  // Router errors are answered before the request hooks run, so the guard headers are set here too.
  return reply
    .code(status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(JSON.stringify(body));
}
