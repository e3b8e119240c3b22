import type { FastifyReply } from 'fastify';
import type { AssetRow } from './schema.js';
import type { AssetsService } from './service.js';

/**
 * Served with a sandboxing CSP so an SVG (or anything else) opened directly runs no script, and
 * with nosniff so the browser never reinterprets the bytes as something else.
 */
export const ASSET_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; sandbox";

/** Characters that need no quoting or escaping inside a quoted-string filename (RFC 6266). */
const PLAIN_FILENAME = /[^A-Za-z0-9._ ()-]+/g;

/** RFC 5987 attr-char: everything else is percent-encoded as UTF-8. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * A Content-Disposition value that no file name can break out of: a quoted ASCII fallback that
 * every client understands, plus `filename*` carrying the real UTF-8 name when it is not ASCII.
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(PLAIN_FILENAME, '_').trim() || 'file';
  const header = `${type}; filename="${ascii}"`;
  return ascii === fileName || !fileName ? header : `${header}; filename*=UTF-8''${encodeRfc5987(fileName)}`;
}

/** Text we accepted only as valid UTF-8, so say so rather than let the client guess a charset. */
export function servedContentType(contentType: string): string {
  return contentType.startsWith('text/') || contentType === 'application/json' ? `${contentType}; charset=utf-8` : contentType;
}

export interface ServeOptions {
  disposition: 'inline' | 'attachment';
  /** Logos are immutable per id; attachments can be deleted, so they default to the global no-store. */
  cacheControl?: string;
}

/**
 * Streams the stored bytes. No content-length is set by hand: a manual length on a streamed reply
 * kept Fastify's close waiting; Fastify sends it chunked instead.
 */
export function sendAsset(reply: FastifyReply, assets: AssetsService, row: AssetRow, options: ServeOptions): FastifyReply {
  reply
    .header('content-type', servedContentType(row.contentType))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', ASSET_CSP)
    .header('content-disposition', contentDisposition(options.disposition, row.originalName))
    .header('cross-origin-resource-policy', 'same-origin');
  if (options.cacheControl) reply.header('cache-control', options.cacheControl);
  return reply.send(assets.open(row));
}
