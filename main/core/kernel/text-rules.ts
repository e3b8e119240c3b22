/**
 * Rules for text that people read as an identity: agent, company, project and goal names, and
 * titles. Pure functions, shared by the zod building blocks (common-contract.ts) and the JSON body
 * parser (json-body.ts). The renderer imports contract files, so this file imports nothing.
 */

/** With the `u` flag a surrogate range matches only halves that are not part of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Embeddings, overrides and isolates: they reorder what the board shows ("Trojan Source"). */
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;

/**
 * Characters that draw nothing or move text around: controls (C0, C1), format characters (bidi
 * marks, zero-width spaces and joiners, BOM, soft hyphen, tags), line and paragraph separators,
 * private use, and the blank-looking letters used to fake an empty or duplicate name (Hangul
 * fillers, braille blank, combining grapheme joiner).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\u034F\u115F\u1160\u2800\u3164\uFFA0]/gu;
/** A zero-width joiner inside an emoji sequence (👩‍💻) is part of the picture, not a disguise. */
const EMOJI_ZWJ = /(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic})/gu;

/** True when the string holds half of a UTF-16 surrogate pair: SQLite would store U+FFFD instead. */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

export function hasBidiControl(s: string): boolean {
  return BIDI_CONTROL.test(s);
}

/** The first invisible or control character of a name, as `U+XXXX`, or null. */
export function invisibleCharacter(s: string): string | null {
  const found = s.replace(EMOJI_ZWJ, '').match(INVISIBLE);
  const cp = found?.[0]?.codePointAt(0);
  return cp === undefined ? null : `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Any run of spaces (no-break, thin, ideographic...) reads as one space. */
export function collapseSpaces(s: string): string {
  return s.replace(/\p{Zs}+/gu, ' ');
}
