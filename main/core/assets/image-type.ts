import { fileTypeFromBuffer } from 'file-type';

/** Image content types a logo may have (spec 4.1). `image/jpg` is accepted as a JPEG alias. */
export const LOGO_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/webp', 'image/gif', 'image/svg+xml'] as const;

const canonical = (type: string): string => (type === 'image/jpg' ? 'image/jpeg' : type);

/**
 * SVG is XML text, so magic-byte sniffers do not know it. Accept UTF-8 text whose first element,
 * after an optional BOM, XML declaration, comments and doctype, is `<svg`.
 */
export function looksLikeSvg(bytes: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, 4096));
  } catch {
    return false;
  }
  const head = text
    .replace(/^\uFEFF/, '')
    .replace(/^\s*<\?xml[\s\S]*?\?>/, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .replace(/^\s*<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/i, '')
    .replace(/^(\s*<!--[\s\S]*?-->)*/, '')
    .trimStart();
  return /^<svg[\s>/]/i.test(head);
}

/**
 * The image type the bytes really are, checked against the declared content type. Returns the
 * canonical type to store, or null when the bytes are not one of the allowed images or do not
 * agree with what the client declared.
 */
export async function verifiedImageType(bytes: Buffer, declared: string): Promise<string | null> {
  const claimed = canonical(declared.split(';')[0]!.trim().toLowerCase());
  if (!LOGO_CONTENT_TYPES.map(canonical).includes(claimed)) return null;
  if (claimed === 'image/svg+xml') return looksLikeSvg(bytes) ? claimed : null;
  const detected = await fileTypeFromBuffer(bytes);
  return detected && canonical(detected.mime) === claimed ? claimed : null;
}
