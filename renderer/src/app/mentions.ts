export interface MentionCandidate {
  id: string;
  name: string;
  urlKey: string;
}

/** The `@word` being typed just before the caret, if any (an @ at a word start). */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const m = /(^|[^\w@])@([\w-]{0,64})$/.exec(before);
  if (!m) return null;
  return { start: caret - m[2]!.length - 1, query: m[2]! };
}

/** Candidates whose name or shortname starts with the query (then contain it), at most `limit`. */
export function matchCandidates<T extends MentionCandidate>(candidates: readonly T[], query: string, limit = 6): T[] {
  const q = query.toLowerCase();
  const starts = candidates.filter((c) => c.name.toLowerCase().startsWith(q) || c.urlKey.startsWith(q));
  const contains = candidates.filter((c) => !starts.includes(c) && (c.name.toLowerCase().includes(q) || c.urlKey.includes(q)));
  return [...starts, ...contains].slice(0, limit);
}

/** Replaces the `@query` at `start..caret` with `@shortname ` (a shortname has no spaces, so it always parses back). */
export function applyMention(text: string, start: number, caret: number, c: MentionCandidate): { text: string; caret: number } {
  const insert = `@${c.urlKey} `;
  return { text: text.slice(0, start) + insert + text.slice(caret), caret: start + insert.length };
}
