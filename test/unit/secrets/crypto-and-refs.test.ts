import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { open, opens, seal, versionAad } from '../../../main/core/secrets/crypto.js';
import { findSecretRefs, formatSecretUri, parseSecretUri, SecretUri } from '../../../main/core/secrets/refs.js';

const id = '5f0c6f7e-2b1a-4c3d-9e8f-0a1b2c3d4e5f';

describe('seal / open', () => {
  it('round-trips and refuses a wrong key, a wrong AAD and any altered byte', () => {
    const key = randomBytes(32);
    const sealed = seal(key, Buffer.from('hunter2'), versionAad(id, 1));
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.authTag).toHaveLength(16);
    expect(open(key, sealed, versionAad(id, 1)).toString()).toBe('hunter2');
    expect(opens(randomBytes(32), sealed, versionAad(id, 1))).toBe(false);
    expect(opens(key, sealed, versionAad(id, 2))).toBe(false);
    expect(opens(key, sealed, versionAad('00000000-0000-4000-8000-000000000000', 1))).toBe(false);
    for (const field of ['iv', 'ciphertext', 'authTag'] as const) {
      const copy = { ...sealed, [field]: Buffer.from(sealed[field]) };
      copy[field][0] = copy[field][0]! ^ 1;
      expect(opens(key, copy, versionAad(id, 1)), field).toBe(false);
    }
  });

  it('never reuses an IV', () => {
    const key = randomBytes(32);
    const ivs = new Set(Array.from({ length: 200 }, () => seal(key, Buffer.from('x'), 'a').iv.toString('hex')));
    expect(ivs.size).toBe(200);
  });
});

describe('secret:// references (CRM string form)', () => {
  it('parses latest and numbered versions and formats them back', () => {
    expect(parseSecretUri(`secret://${id}:latest`)).toEqual({ type: 'secret_ref', secretId: id, version: 'latest' });
    expect(parseSecretUri(`secret://${id}:12`)).toEqual({ type: 'secret_ref', secretId: id, version: 12 });
    expect(formatSecretUri({ secretId: id, version: 12 })).toBe(`secret://${id}:12`);
    expect(formatSecretUri({ secretId: id, version: 'latest' })).toBe(`secret://${id}:latest`);
  });

  it('refuses everything else', () => {
    for (const text of [
      `secret://${id}`,
      `secret://${id}:`,
      `secret://${id}:0`,
      `secret://${id}:01`,
      `secret://${id}:-1`,
      `secret://${id}:1.5`,
      `secret://${id}:LATEST`,
      `secret://${id}:99999999999`,
      `secret://${id}:2147483648`,
      `secret://not-a-uuid:1`,
      `secrets://${id}:1`,
      ` secret://${id}:1`,
      `secret://${id}:1\n`,
      `secret://${id}/x:1`,
      '',
    ]) {
      expect(parseSecretUri(text), JSON.stringify(text)).toBeNull();
      expect(SecretUri.safeParse(text).success).toBe(false);
    }
    expect(SecretUri.safeParse(`secret://${id}:2147483647`).success).toBe(true);
  });
});

describe('findSecretRefs', () => {
  it('finds references at any depth, in objects and arrays, with their paths', () => {
    const r = { type: 'secret_ref', secretId: id, version: 'latest' };
    expect(findSecretRefs({ env: { A: r, B: 'plain' }, headers: { Authorization: r }, nested: [{ deep: r }], n: null })).toEqual([
      { path: ['env', 'A'], ref: r },
      { path: ['headers', 'Authorization'], ref: r },
      { path: ['nested', '0', 'deep'], ref: r },
    ]);
  });
});
