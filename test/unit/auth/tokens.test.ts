import { describe, expect, it } from 'vitest';
import { generateBoardToken, secretEquals, secretMatcher } from '../../../main/core/auth/tokens.js';

describe('secretMatcher', () => {
  it('accepts the secret alone, whatever else a candidate shares with it', () => {
    const secret = generateBoardToken();
    const matches = secretMatcher(secret);
    expect(matches(secret)).toBe(true);
    // The same text built anew (not the same string object) still matches.
    expect(matches(`${secret.slice(0, 10)}${secret.slice(10)}`)).toBe(true);
    const last = secret.at(-1)!;
    for (const candidate of [
      '',
      secret.slice(0, -1),
      `${secret}x`,
      `${secret.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`,
      secret.toUpperCase() === secret ? secret.toLowerCase() : secret.toUpperCase(),
      ` ${secret}`,
    ]) {
      expect(matches(candidate)).toBe(false);
    }
  });

  it('compares bytes: a candidate of as many characters but other UTF-8 bytes does not match', () => {
    const matches = secretMatcher('hcb_café');
    expect(matches('hcb_café')).toBe(true);
    // "e" and a combining accent: other characters, other bytes, another length in UTF-8.
    expect(matches('hcb_cafe\u0301')).toBe(false);
    expect(matches('hcb_cafe')).toBe(false);
    expect(matches('hcb_cafX')).toBe(false);
  });
});

describe('secretEquals', () => {
  it('tells equal secrets from different ones of any length', () => {
    expect(secretEquals('hcb_abc', 'hcb_abc')).toBe(true);
    expect(secretEquals('hcb_abc', 'hcb_abd')).toBe(false);
    expect(secretEquals('hcb_abc', 'hcb_ab')).toBe(false);
    expect(secretEquals('', 'hcb_abc')).toBe(false);
  });
});
