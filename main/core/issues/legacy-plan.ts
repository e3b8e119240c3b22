/**
 * Before plans were documents, agents wrote them into the description between `<plan>` and
 * `</plan>` tags. Such a block is shown read-only as `legacyPlanDocument`.
 */
export function legacyPlanBlock(description: string): string | null {
  const match = /<plan>\s*([\s\S]*?)\s*<\/plan>/i.exec(description);
  return match && match[1]!.trim() ? match[1]!.trim() : null;
}
