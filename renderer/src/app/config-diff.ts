import { diffLines } from 'diff';

/** JSON with keys sorted at every level, so two configurations diff by content, not key order. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]));
    return v;
  };
  return JSON.stringify(sort(value), null, 2);
}

export interface DiffLine {
  kind: 'add' | 'del' | 'same';
  text: string;
}

/** Line diff of two configurations (adapter type included), for the revision history. */
export function configDiff(before: unknown, after: unknown): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(stableJson(before ?? {}) + '\n', stableJson(after ?? {}) + '\n')) {
    const kind = part.added ? 'add' : part.removed ? 'del' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ kind, text });
  }
  return out;
}

/** Line diff of two texts (documents and their revisions). */
export function textDiff(before: string, after: string): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(before.endsWith('\n') ? before : before + '\n', after.endsWith('\n') ? after : after + '\n')) {
    const kind = part.added ? 'add' : part.removed ? 'del' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ kind, text });
  }
  return out;
}

/** Only the changed lines, with up to `context` unchanged lines around each change. */
export function compactDiff(lines: readonly DiffLine[], context = 2): (DiffLine | { kind: 'gap'; text: string })[] {
  const keep = new Set<number>();
  lines.forEach((l, i) => {
    if (l.kind !== 'same') for (let j = Math.max(0, i - context); j <= Math.min(lines.length - 1, i + context); j++) keep.add(j);
  });
  const out: (DiffLine | { kind: 'gap'; text: string })[] = [];
  let skipped = 0;
  lines.forEach((l, i) => {
    if (keep.has(i)) {
      if (skipped) out.push({ kind: 'gap', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      skipped = 0;
      out.push(l);
    } else skipped++;
  });
  if (skipped && out.length) out.push({ kind: 'gap', text: `… ${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
  return out;
}
