/** Every CRM size limit is counted in UTF-8 bytes (spec 8), not in UTF-16 code units. */
export const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');
