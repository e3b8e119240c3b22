import { LOGO_CONTENT_TYPES, verifiedImageType } from '../../assets/image-type.js';

/**
 * The attachment allowlist (DESIGN.md: uploads). Every type is checked against the bytes, because
 * the declared type is whatever the client says:
 * - the six logo image types (`image/jpg` is stored as `image/jpeg`): magic bytes via file-type,
 *   SVG as UTF-8 XML whose root is `<svg`;
 * - `application/pdf`: the bytes start with `%PDF-`;
 * - `text/plain`, `text/markdown` (alias `text/x-markdown`), `text/csv`: valid UTF-8 without NUL
 *   bytes; `application/json` additionally parses as JSON;
 * - `application/zip`: starts with the local-file-header magic `PK\x03\x04`, so Office files and
 *   other ZIP containers are accepted when declared as ZIP (they are served as downloads anyway).
 * Anything else (HTML, BMP, executables, octet-stream, ...) is refused: nothing here is ever served
 * as something a browser would run.
 */
export const ATTACHMENT_CONTENT_TYPES = [
  ...LOGO_CONTENT_TYPES,
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
  'application/zip',
] as const;

const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv', 'application/json']);
const ALIASES: Record<string, string> = { 'text/x-markdown': 'text/markdown' };

/** The declared media type without parameters, lower-cased, with aliases resolved. */
function declaredMediaType(declared: string): string {
  const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
  return ALIASES[type] ?? type;
}

function utf8Text(bytes: Buffer): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text.replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

const startsWith = (bytes: Buffer, magic: string): boolean => bytes.subarray(0, magic.length).equals(Buffer.from(magic, 'latin1'));

/**
 * The content type to store, or null when the declared type is not allowed or the bytes are not
 * what it claims.
 */
export async function verifiedAttachmentType(bytes: Buffer, declared: string): Promise<string | null> {
  const type = declaredMediaType(declared);
  if (type.startsWith('image/')) return verifiedImageType(bytes, type);
  if (type === 'application/pdf') return startsWith(bytes, '%PDF-') ? type : null;
  if (type === 'application/zip') return startsWith(bytes, 'PK\x03\x04') ? type : null;
  if (TEXT_TYPES.has(type)) {
    const text = utf8Text(bytes);
    if (text === null) return null;
    return type !== 'application/json' || isJson(text) ? type : null;
  }
  return null;
}

/** Raster images may show in the page; everything else, SVG included, is a download. */
export const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);

export const dispositionFor = (contentType: string): 'inline' | 'attachment' => (INLINE_TYPES.has(contentType) ? 'inline' : 'attachment');
