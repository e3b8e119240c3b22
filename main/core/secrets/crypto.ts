import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** What one AES-256-GCM encryption produces; stored as three columns. */
export interface Sealed {
  iv: Buffer;
  ciphertext: Buffer;
  authTag: Buffer;
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The authenticated data of a secret version. Binding the row's identity into the tag means a
 * ciphertext copied to another secret, or to another version of the same secret, fails to open
 * instead of quietly handing out the wrong value.
 */
export const versionAad = (secretId: string, version: number): string => `${secretId}:${version}`;

/** The canary of master_key_state: its AAD carries the generation, so an old canary cannot be replayed. */
export const canaryAad = (generation: number): string => `master-key-canary:${generation}`;
export const CANARY_PLAINTEXT = Buffer.from('headcount master key canary v1');

/** Encrypts with a fresh random IV; a (key, IV) pair is never reused. */
export function seal(key: Buffer, plaintext: Buffer, aad: string): Sealed {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, ciphertext, authTag: cipher.getAuthTag() };
}

/** Decrypts and authenticates; throws on a wrong key, wrong AAD or any tampering. */
export function open(key: Buffer, sealed: Sealed, aad: string): Buffer {
  const decipher = createDecipheriv(ALGORITHM, key, sealed.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.authTag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
}

/** `open` that answers false instead of throwing, for "which key opens this?" questions. */
export function opens(key: Buffer, sealed: Sealed, aad: string): boolean {
  try {
    open(key, sealed, aad);
    return true;
  } catch {
    return false;
  }
}
