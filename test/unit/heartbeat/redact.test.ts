import { describe, expect, it } from 'vitest';
import { StreamRedactor, redact, REDACTED } from '../../../main/core/heartbeat/redact.js';

const SECRET = 'sk-live-0123456789abcdef';

describe('secret redaction', () => {
  it('masks every occurrence in one piece of text', () => {
    expect(redact(`key=${SECRET} again ${SECRET}`, [SECRET])).toBe(`key=${REDACTED} again ${REDACTED}`);
  });

  it('catches a value split across chunks at every possible point', () => {
    const text = `before ${SECRET} after`;
    for (let i = 1; i < text.length; i++) {
      for (let j = i; j < text.length; j++) {
        const r = new StreamRedactor([SECRET, 'other-secret-value']);
        const out = r.push(text.slice(0, i)) + r.push(text.slice(i, j)) + r.push(text.slice(j)) + r.end();
        expect(out).toBe(`before ${REDACTED} after`);
      }
    }
  });

  it('passes text through unchanged when there is nothing to redact, and ignores tiny values', () => {
    const r = new StreamRedactor(['ab']);
    expect(r.push('abc ab')).toBe('abc ab');
    expect(new StreamRedactor([]).push('x')).toBe('x');
  });

  it('prefers the longest value when secrets overlap', () => {
    expect(redact('token-1234-extended', ['token-1234', 'token-1234-extended'])).toBe(REDACTED);
  });
});
