import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_BASE64_FRAGMENT, REDACTED, Redactor, StreamRedactor, redact } from '../../../main/core/heartbeat/redact.js';

/** Values a careless CLI prints: quotes, backslashes, +, /, =, spaces, newlines, non-ASCII. */
const SPECIAL = ['"', '\\', '+', '/', '=', '\n', ' ', '%', '&', "'", 'é', '€'];
const valueArb = fc
  .tuple(
    fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split(''), ...SPECIAL), { minLength: 12, maxLength: 40 }),
    fc.constantFrom(...SPECIAL),
  )
  // At least one special character, so every form differs from the plain value somewhere.
  .map(([chars, special]) => [...chars.slice(0, 6), special, ...chars.slice(6)].join(''));
/** Surrounding text from an alphabet the value cannot hide in. */
const aroundArb = fc.array(fc.constantFrom(...'.,:;<>|_-~'.split('')), { maxLength: 30 }).map((a) => a.join(''));

/** Each form a CLI might print the value in, as the test knows them (not as redact.ts lists them). */
const encodings: Record<string, (v: string) => string> = {
  plain: (v) => v,
  pty: (v) => v.replace(/\n/g, '\r\n'),
  json: (v) => JSON.stringify(v).slice(1, -1),
  // A JSON document inside a JSON string (stream-json tool output): escaped twice.
  jsonTwice: (v) => JSON.stringify(JSON.stringify(v).slice(1, -1)).slice(1, -1),
  url: (v) => encodeURIComponent(v),
  urlPlus: (v) => encodeURIComponent(v).replace(/%20/g, '+'),
  form: (v) => new URLSearchParams({ q: v }).toString().slice(2),
  base64: (v) => Buffer.from(v).toString('base64'),
  base64url: (v) => Buffer.from(v).toString('base64url'),
};

/** Splits text into chunks at the given cut points. */
function chunks(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const p of points) {
    out.push(text.slice(last, p));
    last = p;
  }
  out.push(text.slice(last));
  return out;
}

function streamed(secrets: string[], parts: string[]): string {
  const r = new StreamRedactor(secrets);
  return parts.map((p) => r.push(p)).join('') + r.end();
}

describe('redaction of every form a CLI prints a secret in', () => {
  for (const [name, encode] of Object.entries(encodings)) {
    it(`${name}: caught in one piece and across any chunk boundaries`, () => {
      fc.assert(
        fc.property(valueArb, aroundArb, aroundArb, fc.array(fc.nat(), { maxLength: 4 }), (value, before, after, cuts) => {
          const form = encode(value);
          const text = `${before}${form}${after}`;
          const once = redact(text, [value]);
          expect(once).toBe(`${before}${REDACTED}${after}`);
          expect(streamed([value, 'another-secret-value'], chunks(text, cuts))).toBe(once);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('base64: a value inside a longer base64 stream is caught at each of the three alignments', () => {
    fc.assert(
      fc.property(valueArb, fc.uint8Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 20 }), fc.constantFrom<'base64' | 'base64url'>('base64', 'base64url'), (value, before, after, encoding) => {
        const bytes = Buffer.from(value);
        const stream = Buffer.concat([before, bytes, after]).toString(encoding);
        const out = redact(stream, [value]);
        expect(out).toContain(REDACTED);
        // What is left around the marker decodes to at most two bytes of the value at either end.
        for (const piece of out.split(REDACTED)) {
          const decoded = Buffer.from(piece.replace(/=+$/, ''), encoding);
          const middle = bytes.subarray(2, bytes.length - 2);
          if (middle.length >= 3) expect(decoded.includes(middle)).toBe(false);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('leaves unrelated text alone, and base64 fragments shorter than the minimum', () => {
    expect(MIN_BASE64_FRAGMENT).toBeGreaterThanOrEqual(8);
    expect(redact('nothing secret here', ['sk-live-abcdef'])).toBe('nothing secret here');
    expect(redact('abc', ['abc'])).toBe('abc');
  });

  it('a multi-line secret printed under a terminal (\\r\\n) is caught across chunks', () => {
    const secret = '-----BEGIN KEY-----\nMIIBOgIBAAJBAK\n-----END KEY-----';
    const text = `cat key.pem\r\n${secret.replace(/\n/g, '\r\n')}\r\n$ `;
    for (let i = 1; i < text.length; i++) expect(streamed([secret], [text.slice(0, i), text.slice(i)])).toBe(`cat key.pem\r\n${REDACTED}\r\n$ `);
  });

  it('handles the largest secret a company may hold (64 KiB) in every form', () => {
    const value = randomBytes(48 * 1024).toString('base64');
    const text = `a ${value} b ${encodeURIComponent(value)} c ${JSON.stringify({ v: value })} d`;
    const half = text.length >> 1;
    expect(streamed([value], [text.slice(0, half), text.slice(half)])).toBe(`a ${REDACTED} b ${REDACTED} c {"v":"${REDACTED}"} d`);
  });

  it('holds back only an end of the output that could begin a secret, however long the secret', () => {
    const r = new StreamRedactor([randomBytes(48 * 1024).toString('base64')]);
    // Nothing here begins a form: all but a few characters go out at once (memory stays flat).
    const first = r.push('x'.repeat(10_000));
    expect(first.length).toBeGreaterThanOrEqual(10_000 - 15);
    expect(first + r.push('y'.repeat(10)) + r.end()).toBe('x'.repeat(10_000) + 'y'.repeat(10));
  });

  it('redacts every string of a run record, keys included, and leaves other values', () => {
    const r = new Redactor(['tok-1234567890']);
    const record = { sessionParams: { sessionId: 'tok-1234567890', n: 3 }, usage: { model: 'x tok-1234567890', inputTokens: 5 }, list: ['tok-1234567890'], ['tok-1234567890']: true };
    expect(r.deep(record)).toEqual({ sessionParams: { sessionId: REDACTED, n: 3 }, usage: { model: `x ${REDACTED}`, inputTokens: 5 }, list: [REDACTED], [REDACTED]: true });
  });
});
