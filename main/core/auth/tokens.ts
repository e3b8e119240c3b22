import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Prefixes make leaked credentials recognisable to secret scanners and to people. */
export const BOARD_TOKEN_PREFIX = 'hcb_';
export const AGENT_KEY_PREFIX = 'hck_';
/** Characters of an agent key shown in listings, enough to tell keys apart. */
export const AGENT_KEY_DISPLAY_LENGTH = AGENT_KEY_PREFIX.length + 8;

export const generateBoardToken = (): string => BOARD_TOKEN_PREFIX + randomBytes(32).toString('base64url');
export const generateAgentKey = (): string => AGENT_KEY_PREFIX + randomBytes(32).toString('base64url');

/** Keys carry 256 random bits, so a plain SHA-256 is a safe lookup hash (no stretching needed). */
export const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Constant-time comparison of two secrets of any length. */
export function secretEquals(a: string, b: string): boolean {
  const da = createHash('sha256').update(a, 'utf8').digest();
  const db = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(da, db);
}

/** A matcher for one fixed secret: its digest is taken once, not on every comparison. */
export function secretMatcher(secret: string): (candidate: string) => boolean {
  const expected = createHash('sha256').update(secret, 'utf8').digest();
  return (candidate) => timingSafeEqual(createHash('sha256').update(candidate, 'utf8').digest(), expected);
}

export function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
