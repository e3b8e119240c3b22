/** Values shorter than this are not redacted: masking every "1" or "ok" would wreck transcripts. */
export const MIN_REDACTED_LENGTH = 4;
export const REDACTED = '[redacted]';
/**
 * A base64 fragment of a value embedded in a longer base64 stream is matched only from this many
 * characters on (6 bytes of the value): shorter runs occur by chance in unrelated base64.
 */
export const MIN_BASE64_FRAGMENT = 8;

/** JSON string content with every non-ASCII character escaped (`ensure_ascii` printers). */
const asciiJson = (json: string) => json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The base64 text that a value's bytes produce wherever they sit in a longer base64 stream: the
 * stream's 3-byte groups start at one of three offsets inside the value, and only the groups made
 * wholly of the value's bytes are predictable. At most two bytes at either end stay unmatched.
 */
function base64Fragments(bytes: Buffer, encoding: 'base64' | 'base64url'): string[] {
  const out: string[] = [];
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole <= 0) continue;
    const fragment = bytes.subarray(skip, skip + whole).toString(encoding);
    if (fragment.length >= MIN_BASE64_FRAGMENT) out.push(fragment);
  }
  return out;
}

/**
 * Every form a secret value takes in what a CLI prints: plain; under a terminal, with `\n` turned
 * into `\r\n`; JSON-escaped (once, twice for JSON inside a JSON string, with `\/`, and ASCII-only);
 * URL-encoded (encodeURIComponent, `+` for space, form encoding, lower-case hex); base64 and
 * base64url, whole or as a fragment of a longer stream at any alignment; hex.
 */
export function secretForms(value: string): string[] {
  if (value.length < MIN_REDACTED_LENGTH) return [];
  const forms = new Set<string>([value]);
  if (value.includes('\n')) forms.add(value.replace(/\r?\n/g, '\r\n'));
  const json = JSON.stringify(value).slice(1, -1);
  for (const j of [json, JSON.stringify(json).slice(1, -1)]) {
    forms.add(j);
    forms.add(j.replace(/\//g, '\\/'));
    forms.add(asciiJson(j));
  }
  const url = encodeURIComponent(value);
  const form = new URLSearchParams({ v: value }).toString().slice(2);
  for (const u of [url, url.replace(/%20/g, '+'), form]) {
    forms.add(u);
    forms.add(u.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  }
  const bytes = Buffer.from(value, 'utf8');
  for (const encoding of ['base64', 'base64url'] as const) {
    const whole = bytes.toString(encoding);
    forms.add(whole);
    forms.add(whole.replace(/=+$/, ''));
    for (const f of base64Fragments(bytes, encoding)) forms.add(f);
  }
  const hex = bytes.toString('hex');
  forms.add(hex);
  forms.add(hex.toUpperCase());
  return [...forms].filter((f) => f.length >= MIN_REDACTED_LENGTH);
}

interface Compiled {
  /** Longest first. */
  forms: string[];
  holdBack: number;
}

function compile(secrets: readonly string[]): Compiled {
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  return { forms, holdBack: forms.length ? forms[0]!.length - 1 : 0 };
}

/**
 * Where any form occurs in `text`, as disjoint [start, end) spans in order; overlapping
 * occurrences (of one secret's forms, or of two secrets) merge into one span. `indexOf` per form
 * rather than one alternation regex: it stays fast for long values and has no size limit.
 */
function findSpans(text: string, forms: readonly string[]): [number, number][] {
  const found: [number, number][] = [];
  for (const form of forms) {
    for (let i = text.indexOf(form); i !== -1; i = text.indexOf(form, i + 1)) found.push([i, i + form.length]);
  }
  if (found.length === 0) return found;
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const spans: [number, number][] = [found[0]!];
  for (const [start, end] of found) {
    const last = spans[spans.length - 1]!;
    if (start < last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

/** `text` up to `cut` with every span inside it replaced by the marker. */
function replaceSpans(text: string, spans: readonly [number, number][], cut = text.length): string {
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    if (end > cut) break;
    out += text.slice(at, start) + REDACTED;
    at = end;
  }
  return out + text.slice(at, cut);
}

/**
 * Streaming redaction of secret values in every form of `secretForms`. A value split across two
 * chunks is still caught: the last (longest form - 1) characters are held back until the next
 * chunk (or `end()`) shows whether they start a secret; any form starting before that point has
 * then arrived whole.
 */
export class StreamRedactor {
  private readonly forms: string[];
  private readonly holdBack: number;
  private pending = '';

  constructor(secrets: readonly string[]) {
    ({ forms: this.forms, holdBack: this.holdBack } = compile(secrets));
  }

  /** Redacted text that is safe to emit now (possibly empty). */
  push(chunk: string): string {
    if (this.forms.length === 0) return chunk;
    const text = this.pending + chunk;
    const spans = findSpans(text, this.forms);
    let cut = Math.max(0, text.length - this.holdBack);
    // A match that straddles the cut is emitted whole rather than split.
    for (const [start, end] of spans) if (start < cut && end > cut) cut = end;
    this.pending = text.slice(cut);
    return replaceSpans(text, spans, cut);
  }

  /** Whatever was held back, redacted. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return replaceSpans(rest, findSpans(rest, this.forms));
  }
}

/**
 * The one redaction of everything a run stores or sends besides its stream (which goes through
 * `StreamRedactor`): prepared once per run, applied to text or to every string of a JSON value.
 */
export class Redactor {
  private readonly forms: string[];

  constructor(secrets: readonly string[]) {
    this.forms = compile(secrets).forms;
  }

  text(text: string): string {
    return this.forms.length ? replaceSpans(text, findSpans(text, this.forms)) : text;
  }

  /** A copy of a JSON-like value with every string (object keys included) redacted. */
  deep<T>(value: T): T {
    if (this.forms.length === 0) return value;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') return this.text(v);
      if (Array.isArray(v)) return v.map(walk);
      if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [this.text(k), walk(inner)]));
      return v;
    };
    return walk(value) as T;
  }
}

/** One-shot redaction for text that is not a stream (errors, command lines, responses). */
export function redact(text: string, secrets: readonly string[]): string {
  return new Redactor(secrets).text(text);
}
