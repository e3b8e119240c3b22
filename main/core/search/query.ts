/**
 * User input as an FTS5 query that cannot be a syntax error: every word becomes a quoted phrase
 * (quotes doubled), so operators, column filters and stray punctuation are plain text. The last
 * word matches as a prefix, because the palette searches while the founder types.
 */
export function toFtsQuery(input: string): string | null {
  const words = input
    .normalize('NFKC')
    .split(/\s+/)
    // A word with no letter or digit yields no token, and an empty phrase would match nothing.
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 16);
  if (words.length === 0) return null;
  return words.map((w, i) => `"${w.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/** LIKE pattern for a name containing `input`, with LIKE's wildcards escaped by `\`. */
export function likeContains(input: string): string {
  return `%${input.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Markers snippet() puts around matched tokens; control characters never appear in stored text we show. */
export const MARK_START = '\u0002';
export const MARK_END = '\u0003';

export interface SnippetPart {
  text: string;
  match: boolean;
}

/** A snippet with markers, as parts the page renders without any HTML. */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const re = new RegExp(`${MARK_START}([^${MARK_END}]*)${MARK_END}`, 'g');
  let last = 0;
  for (const m of snippet.matchAll(re)) {
    if (m.index > last) parts.push({ text: snippet.slice(last, m.index), match: false });
    parts.push({ text: m[1]!, match: true });
    last = m.index + m[0].length;
  }
  if (last < snippet.length) parts.push({ text: snippet.slice(last), match: false });
  return parts.map((p) => ({ ...p, text: p.text.replaceAll(MARK_START, '').replaceAll(MARK_END, '') }));
}
