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

/** What a full-screen CLI puts inside a long value it prints: wraps (with padding and indent) and colours. */
const NOISE = ['\r\n', '\n', '\r', '  \r\n  ', '\n    ', '\x1b[0m', '\x1b[38;5;245m', '\x1b[2K\x1b[1G', '\x1b[1B\x1b[3G', '\x1b(B', '\x1b7'];
/**
 * Values without spaces (a wrap takes the padding next to it, which may be the value's own space:
 * redact.ts) and without line breaks at their ends (a break next to the value is not part of it).
 */
const wrappableArb = valueArb.filter((v) => !/[ \t]|^\s|\s$/.test(v));

/** `form` with noise at the given positions strictly inside it. */
function splitByTerminal(form: string, at: Array<[number, number]>): string {
  const cuts = [...new Set(at.map(([p]) => 1 + (p % (form.length - 1))))].sort((a, b) => a - b);
  let out = '';
  let last = 0;
  cuts.forEach((cut, i) => {
    out += form.slice(last, cut) + NOISE[at[i]![1] % NOISE.length];
    last = cut;
  });
  return out + form.slice(last);
}

describe('redaction of a secret the terminal splits', () => {
  for (const name of ['plain', 'json', 'url', 'base64'] as const) {
    it(`${name}: wrapped or coloured anywhere inside, in one piece and across any chunk boundaries`, () => {
      fc.assert(
        fc.property(wrappableArb, aroundArb, aroundArb, fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 3 }), fc.array(fc.nat(), { maxLength: 4 }), (value, before, after, noise, cuts) => {
          const text = `${before}${splitByTerminal(encodings[name]!(value), noise)}${after}`;
          const once = redact(text, [value]);
          expect(once).toBe(`${before}${REDACTED}${after}`);
          expect(streamed([value, 'another-secret-value'], chunks(text, cuts))).toBe(once);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('a token wrapped at the terminal width is caught at every chunk boundary, and the text around it kept', () => {
    const token = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0'.repeat(6);
    const text = `\x1b[1mexport\x1b[0m GITHUB_TOKEN=${token.slice(0, 60)}\r\n  ${token.slice(60)}\r\n$ `;
    const expected = `\x1b[1mexport\x1b[0m GITHUB_TOKEN=${REDACTED}\r\n$ `;
    expect(redact(text, [token])).toBe(expected);
    for (let i = 1; i < text.length; i++) expect(streamed([token], [text.slice(0, i), text.slice(i)])).toBe(expected);
  });

  it('a value coloured piece by piece loses the pieces and keeps the colour reset after it', () => {
    const secret = 'sk-live-0123456789abcdef';
    expect(redact(`key: \x1b[32msk-live\x1b[0m-0123\x1b[1m456789abcdef\x1b[0m.`, [secret])).toBe(`key: \x1b[32m${REDACTED}\x1b[0m.`);
  });

  it('still finds a value a control sequence seems to swallow a letter of, and one inside a hyperlink', () => {
    const secret = 'sk-live-0123456789abcdef';
    // `ESC [ s` is a complete control sequence: the value's first letter looks like part of it.
    expect(redact(`x\x1b[${secret}`, [secret])).toBe(`x\x1b[${REDACTED}`);
    // An OSC 8 hyperlink carries its URL as text.
    expect(redact(`\x1b]8;;https://api.example.com/?key=${secret}\x07docs\x1b]8;;\x07`, [secret])).toBe(`\x1b]8;;https://api.example.com/?key=${REDACTED}\x07docs\x1b]8;;\x07`);
  });

  it('passes a stray escape character and a long run of spaces through as text', () => {
    const secret = 'sk-live-0123456789abcdef';
    expect(redact(`a\x1bx ${secret}\x1b`, [secret])).toBe(`a\x1bx ${REDACTED}\x1b`);
    const r = new StreamRedactor([secret]);
    // Spaces at the end may be a wrap's padding: held, but only the last few hundred of them.
    const spaces = ' '.repeat(10_000);
    const first = r.push(spaces);
    expect(first.length).toBeGreaterThan(10_000 - 300);
    expect(first + r.push(`\r\n  ${secret.slice(0, 5)}`) + r.push(`${secret.slice(5)}.`) + r.end()).toBe(`${spaces}\r\n  ${REDACTED}.`);
  });

  it('holds back nothing when the output pauses at an end that begins no secret, and only the beginning of one when it does', () => {
    const secret = 'sk-live-0123456789abcdef';
    const r = new StreamRedactor([secret, 'another-secret-value']);
    // A stream-json line, then the agent waits on a tool: the live transcript shows the whole line.
    expect(r.push('{"type":"assistant","text":"Running the tests"}\n')).toBe('{"type":"assistant","text":"Running the tests"}\n');
    expect(r.push('Thinking...')).toBe('Thinking...');
    expect(r.push('key: sk-li')).toBe('key: ');
    expect(r.push('ve-0123456789abcdef.') + r.end()).toBe(`${REDACTED}.`);
  });

  it('holds back a control sequence cut off at the end of a chunk until it is complete', () => {
    const secret = 'sk-live-0123456789abcdef';
    const r = new StreamRedactor([secret]);
    const first = r.push('ok sk-live-01234\x1b[3');
    expect(first).toBe('ok ');
    expect(first + r.push('8;5;245m56789abcdef done') + r.end()).toBe(`ok ${REDACTED} done`);
  });

  it('does not hold output back while a CLI redraws a line with control sequences only', () => {
    const r = new StreamRedactor(['sk-live-0123456789abcdef']);
    let out = r.push('working');
    for (let i = 0; i < 1000; i++) out += r.push('\x1b[2K\x1b[1G');
    // Everything but the last characters is out: no secret begins in "working".
    expect(out.length).toBeGreaterThan('working'.length + 1000 * 8 - 16);
    expect(out + r.end()).toBe('working' + '\x1b[2K\x1b[1G'.repeat(1000));
  });

  it('lets a form\'s beginning go once noise behind it passes the bound, so memory stays bounded', () => {
    const secret = 'sk-live-0123456789abcdef';
    const r = new StreamRedactor([secret]);
    let input = 'sk-live-01';
    let out = r.push(input);
    let mostHeld = 0;
    const noise = '\x1b[0m'.repeat(256);
    for (let i = 0; i < 100; i++) {
      out += r.push(noise);
      input += noise;
      mostHeld = Math.max(mostHeld, input.length - out.length);
    }
    // Held while it could still be the secret, then let go: at most twice the longest form (its
    // hex, three times the value) and 16 KiB of noise.
    expect(mostHeld).toBeGreaterThan(16_000);
    expect(mostHeld).toBeLessThanOrEqual(2 * 3 * secret.length + 16_384);
    expect(out.startsWith('sk-live-01')).toBe(true);
    expect(out + r.end()).toBe(input);
  });
});
