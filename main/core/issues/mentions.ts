export interface MentionCandidate {
  id: string;
  name: string;
  urlKey: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Code blocks and inline code are not prose: `@Ada` inside them mentions nobody. */
function stripCode(markdown: string): string {
  return markdown.replace(/```[\s\S]*?(```|$)/g, ' ').replace(/`[^`\n]*`/g, ' ');
}

/**
 * Agents named in `@Name` or `@shortname` mentions, case-insensitively. Longer names win, so
 * `@Ada Lovelace` mentions "Ada Lovelace" rather than an agent named "Ada".
 */
export function findMentions(markdown: string, candidates: readonly MentionCandidate[]): string[] {
  let text = stripCode(markdown);
  const tokens = candidates
    .flatMap((c) => [
      { id: c.id, token: c.name },
      { id: c.id, token: c.urlKey },
    ])
    .filter((t) => t.token.length > 0)
    .sort((a, b) => b.token.length - a.token.length);
  const found = new Set<string>();
  for (const { id, token } of tokens) {
    const re = new RegExp(`(^|[^\\w@])@${escape(token)}(?![\\w-])`, 'gi');
    if (re.test(text)) {
      found.add(id);
      text = text.replace(re, '$1');
    }
  }
  return [...found];
}
