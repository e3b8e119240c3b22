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

/** Forms searched for, longest first, and the characters they begin with. */
interface FormSet {
  list: string[];
  firsts: Set<string>;
}

interface Compiled {
  /** Every form of every secret, as it is printed. */
  forms: FormSet;
  /** The forms without what a terminal may put inside them (`Denoised`), searched in text without it. */
  bare: FormSet;
  /** The most a stream holds back: a form's beginning followed by nothing but noise is let go past it. */
  maxHeld: number;
}

/** A form is recognised as possibly starting at a position by this many of its first characters. */
const HEAD = 16;

function formSet(forms: Iterable<string>): FormSet {
  const list = [...new Set(forms)].sort((a, b) => b.length - a.length);
  return { list, firsts: new Set(list.map((f) => f[0]!)) };
}

function compile(secrets: readonly string[]): Compiled {
  const forms = formSet(secrets.flatMap(secretForms));
  const bare = formSet(forms.list.map((f) => new Denoised(f).text).filter((f) => f.length >= MIN_REDACTED_LENGTH));
  return { forms, bare, maxHeld: 2 * (forms.list[0]?.length ?? 0) + 16_384 };
}

/**
 * What a terminal program may put inside a value it prints without the value saying so: line breaks
 * where a full-screen CLI wraps a long line at the terminal's width (with the padding and indent
 * around them), and control sequences that carry no text (CSI: colours, cursor moves, erasing a
 * line; two- and three-character escapes). OSC and DCS strings carry text (a hyperlink's URL) and
 * stay text, so a value inside one is still found as it is. Not recognised: a value wrapped inside
 * a frame (`│` is text), and one wrapped next to a space of its own (the padding taken with the
 * break may be that space). Tokens and keys, the values long enough to be wrapped, have no spaces.
 */
const NOISE_STARTS = ['\n', '\r', '\x1b'];
const LINE_BREAK = /(?:\r\n|\r|\n)[ \t]*/y;
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[()*+][ -~]|[@-Z\\^_=>78c])/y;
/** A control sequence cut off at the end of a chunk (bounded: a stray ESC is not held forever). */
// eslint-disable-next-line no-control-regex
const ESCAPE_BEGUN = /\x1b(?:\[[0-?]{0,32}[ -/]{0,4}|[()*+])?$/y;

/** Padding a terminal may leave before a line break it wraps at: held at the end of a chunk up to this long. */
const MAX_PADDING = 256;

/** Where the run of spaces and tabs ending at `end` begins (not before `floor`). */
function paddingBefore(text: string, end: number, floor: number): number {
  let start = end;
  while (start > floor && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  return start;
}

function escapeBegunAt(text: string, at: number): boolean {
  ESCAPE_BEGUN.lastIndex = at;
  return ESCAPE_BEGUN.test(text);
}

/**
 * Text with the terminal's noise taken out, and the way back to positions in the text: a value the
 * terminal wrapped or coloured is one piece here. `text` is the same string when there is no noise.
 * Found from the characters noise starts with, not by one regex tried at every position: that was
 * most of the redactor's time on output with a line break in every chunk.
 */
class Denoised {
  readonly text: string;
  /** Ascending positions in `text` where noise was taken out, and how much was taken out up to each. */
  private readonly at: number[] = [];
  private readonly shift: number[] = [];
  /**
   * Where what may be the start of noise ends the text (a control sequence cut off, spaces before a
   * line break still to come): noise here, and held back by a stream. Else the text's length.
   */
  readonly unfinished: number;

  /** `open`: more text may follow (a stream's chunk), so its end may be noise not finished yet. */
  constructor(
    readonly original: string,
    open = false,
  ) {
    const pieces: string[] = [];
    let last = 0;
    let removed = 0;
    const remove = (start: number, end: number) => {
      pieces.push(original.slice(last, start));
      removed += end - start;
      this.at.push(end - removed);
      this.shift.push(removed);
      last = end;
    };
    let unfinished = original.length;
    // Where the next line feed, carriage return and ESC are (Infinity: none left), each found by its
    // own native scan, which runs at memory speed where a character class regex did not (bench/README.md).
    const next = [-1, -1, -1];
    const upcoming = (k: number, from: number): number => {
      if (next[k]! < from) {
        const i = original.indexOf(NOISE_STARTS[k]!, from);
        next[k] = i === -1 ? Infinity : i;
      }
      return next[k]!;
    };
    for (let from = 0; ; ) {
      const start = Math.min(upcoming(0, from), upcoming(1, from), upcoming(2, from));
      if (start === Infinity) break;
      if (original[start] === '\x1b') {
        ESCAPE.lastIndex = start;
        if (ESCAPE.test(original)) remove(start, ESCAPE.lastIndex);
        else if (open && escapeBegunAt(original, start)) remove((unfinished = start), original.length);
      } else {
        LINE_BREAK.lastIndex = start;
        LINE_BREAK.test(original);
        // The padding before the break goes with it (the indent after is in LINE_BREAK).
        remove(paddingBefore(original, start, last), LINE_BREAK.lastIndex);
      }
      // On past the noise, or past a stray ESC that begins none.
      from = Math.max(last, start + 1);
    }
    // Spaces at the very end may be the padding of a line break still to come.
    if (open && last < original.length) {
      const padding = Math.max(paddingBefore(original, original.length, last), original.length - MAX_PADDING);
      if (padding < original.length) remove((unfinished = padding), original.length);
    }
    this.text = removed === 0 ? original : pieces.join('') + original.slice(last);
    this.unfinished = unfinished;
  }

  get noisy(): boolean {
    return this.at.length > 0;
  }

  /** The position in the original text of the character at `position` here (or of the end). */
  toOriginal(position: number): number {
    let lo = 0;
    let hi = this.at.length;
    // The last removal at or before `position`.
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.at[mid]! <= position) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? position : position + this.shift[lo - 1]!;
  }

  /** A span here as a span of the original text, with the noise inside it. */
  span([start, end]: Span): Span {
    return [this.toOriginal(start), this.toOriginal(end - 1) + 1];
  }
}

/**
 * Where the stream must be cut so that no form whose beginning has arrived is emitted before its
 * end: the first position whose rest of `text` is a prefix of some form. Found by each form's first
 * HEAD characters where that many have arrived, and among the last HEAD - 1 characters by checking
 * each position that starts as some form does. Only an end that really begins a form waits for the
 * next chunk: when the output pauses, all of it is shown (a blanket hold of the last characters kept
 * the end of every line from the live transcript until the agent printed again).
 */
function safeCut(text: string, { list, firsts }: FormSet): number {
  let cut = text.length;
  for (const form of list) {
    const head = form.slice(0, HEAD);
    for (let p = text.indexOf(head, Math.max(0, text.length - form.length + 1)); p !== -1 && p < cut; p = text.indexOf(head, p + 1)) {
      if (form.startsWith(text.slice(p))) {
        cut = p;
        break;
      }
    }
  }
  for (let p = Math.max(0, text.length - (HEAD - 1)); p < cut; p++) {
    if (!firsts.has(text[p]!)) continue;
    const rest = text.slice(p);
    if (list.some((form) => form.startsWith(rest))) return p;
  }
  return cut;
}

type Span = [number, number];

/**
 * Every occurrence of every form in `text`. `indexOf` per form rather than one alternation regex:
 * it stays fast for long values and has no size limit.
 */
function occurrences(text: string, forms: FormSet): Span[] {
  const found: Span[] = [];
  for (const form of forms.list) {
    for (let i = text.indexOf(form); i !== -1; i = text.indexOf(form, i + 1)) found.push([i, i + form.length]);
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

/**
 * Every occurrence in `text` as it is, and every one the terminal's noise splits: a value a
 * full-screen CLI wrapped at the terminal's width, or coloured part by part. Both searches: a
 * control sequence may swallow a character of the value (`ESC [` then the value's first letter).
 */
function findAll(view: Denoised, compiled: Compiled): Span[] {
  const found = occurrences(view.original, compiled.forms);
  if (view.noisy) for (const span of occurrences(view.text, compiled.bare)) found.push(view.span(span));
  return found;
}

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
 * Streaming redaction of secret values in every form of `secretForms`, also when the terminal's
 * noise splits one (`Denoised`). A value split across two chunks is still caught: an end of the
 * text that begins some form, or a control sequence not finished yet, is held back until the next
 * chunk (or `end()`) shows what follows; everything before it is emitted.
 */
export class StreamRedactor {
  private readonly compiled: Compiled;
  private pending = '';

  constructor(secrets: readonly string[]) {
    this.compiled = compile(secrets);
  }

  /** Redacted text that is safe to emit now (possibly empty). */
  push(chunk: string): string {
    const { forms, bare, maxHeld } = this.compiled;
    if (forms.list.length === 0) return chunk;
    // The held-back tail is searched again with the chunk: it is a few characters, or a form arriving.
    const text = this.pending + chunk;
    const view = new Denoised(text, true);
    const spans = merge(findAll(view, this.compiled));
    let cut = safeCut(text, forms);
    if (view.noisy) cut = Math.min(cut, view.toOriginal(safeCut(view.text, bare)));
    cut = Math.min(cut, view.unfinished);
    cut = Math.max(cut, text.length - maxHeld);
    // A match that straddles the cut waits whole with the rest (a form may begin inside it).
    for (const [start, end] of spans) if (start < cut && end > cut) cut = start;
    this.pending = text.slice(cut);
    return replaceSpans(text, spans, cut);
  }

  /** Whatever was held back, redacted. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return rest && replaceSpans(rest, merge(findAll(new Denoised(rest), this.compiled)));
  }
}

/**
 * The one redaction of everything a run stores or sends besides its stream (which goes through
 * `StreamRedactor`): prepared once per run, applied to text or to every string of a JSON value.
 */
export class Redactor {
  private readonly compiled: Compiled;

  constructor(secrets: readonly string[]) {
    this.compiled = compile(secrets);
  }

  text(text: string): string {
    return this.compiled.forms.list.length ? replaceSpans(text, merge(findAll(new Denoised(text), this.compiled))) : text;
  }

  /** A copy of a JSON-like value with every string (object keys included) redacted. */
  deep<T>(value: T): T {
    if (this.compiled.forms.list.length === 0) return value;
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
