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
  /** Characters always held back at the end of a stream: a form's head cut short could be anywhere in them. */
  minHold: number;
}

/** A form is recognised as possibly starting at a position by this many of its first characters. */
const HEAD = 16;

function compile(secrets: readonly string[]): Compiled {
  const forms = [...new Set(secrets.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  return { forms, minHold: forms.length ? Math.min(HEAD, forms[0]!.length) - 1 : 0 };
}

/**
 * Where the stream must be cut so that no form whose beginning has arrived is emitted before its
 * end: the first position whose rest of `text` is a proper prefix of some form (a form's head
 * shorter than HEAD can only be in the last `minHold` characters, which are always kept).
 */
function safeCut(text: string, forms: readonly string[], minHold: number): number {
  let cut = Math.max(0, text.length - minHold);
  for (const form of forms) {
    const head = form.slice(0, HEAD);
    for (let p = text.indexOf(head, Math.max(0, text.length - form.length + 1)); p !== -1 && p < cut; p = text.indexOf(head, p + 1)) {
      if (form.startsWith(text.slice(p))) {
        cut = p;
        break;
      }
    }
  }
  return cut;
}

type Span = [number, number];

/**
 * Every occurrence of every form in `text` that ends after `seen` (occurrences wholly inside
 * `text.slice(0, seen)` are the caller's, found before). `indexOf` per form rather than one
 * alternation regex: it stays fast for long values and has no size limit.
 */
function occurrences(text: string, forms: readonly string[], seen = 0): Span[] {
  const found: Span[] = [];
  for (const form of forms) {
    const from = Math.max(0, seen - form.length + 1);
    for (let i = text.indexOf(form, from); i !== -1; i = text.indexOf(form, i + 1)) found.push([i, i + form.length]);
  }
  return found;
}

/** Occurrences as disjoint spans in order: overlapping ones (of one secret's forms, or of two secrets) merge. */
function merge(found: Span[]): Span[] {
  if (found.length === 0) return [];
  const sorted = [...found].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const spans: Span[] = [[sorted[0]![0], sorted[0]![1]]];
  for (const [start, end] of sorted) {
    const last = spans[spans.length - 1]!;
    if (start < last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

const findSpans = (text: string, forms: readonly string[]): Span[] => merge(occurrences(text, forms));

/** `text` up to `cut` with every span inside it replaced by the marker. */
function replaceSpans(text: string, spans: readonly Span[], cut = text.length): string {
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
 * chunks is still caught: an end of the text that begins some form is held back until the next
 * chunk (or `end()`) shows whether the whole form follows; everything before it is emitted.
 */
export class StreamRedactor {
  private readonly forms: string[];
  private readonly minHold: number;
  private pending = '';
  /** Occurrences wholly inside `pending`, found while it was searched as part of earlier text. */
  private pendingFound: Span[] = [];

  constructor(secrets: readonly string[]) {
    ({ forms: this.forms, minHold: this.minHold } = compile(secrets));
  }

  /** Redacted text that is safe to emit now (possibly empty). */
  push(chunk: string): string {
    if (this.forms.length === 0) return chunk;
    const text = this.pending + chunk;
    // Only occurrences reaching into the new chunk are new: the held-back tail is not searched again.
    const found = [...this.pendingFound, ...occurrences(text, this.forms, this.pending.length)];
    const spans = merge(found);
    let cut = safeCut(text, this.forms, this.minHold);
    // A match that straddles the cut waits whole with the rest (a form may begin inside it).
    for (const [start, end] of spans) if (start < cut && end > cut) cut = start;
    this.pending = text.slice(cut);
    this.pendingFound = found.filter(([start]) => start >= cut).map(([start, end]): Span => [start - cut, end - cut]);
    return replaceSpans(text, spans, cut);
  }

  /** Whatever was held back, redacted. */
  end(): string {
    const rest = this.pending;
    const spans = merge(this.pendingFound);
    this.pending = '';
    this.pendingFound = [];
    return replaceSpans(rest, spans);
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
