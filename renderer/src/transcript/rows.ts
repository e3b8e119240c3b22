import type { TranscriptEntry } from '../../../adapters/utils/src/transcript.js';
import type { WindowPage } from './window.js';

export interface EntryRow {
  /** Stable across window moves: page id, line index, entry index. */
  key: string;
  entry: TranscriptEntry;
}

const cache = new WeakMap<WindowPage, { lines: number; parsedUntil: number; lastText: string; rows: EntryRow[] }>();

/**
 * The parsed view's rows of one page, in line order: stderr lines as they are, stdout lines as
 * their parser made them. Rows stop at the first stdout line not parsed yet, so order never jumps.
 * Only the live tail page changes, so the others come from the cache.
 */
export function pageRows(page: WindowPage): EntryRow[] {
  const lines = page.builder.lines;
  const lastText = lines.at(-1)?.text ?? '';
  const hit = cache.get(page);
  if (hit && hit.lines === lines.length && hit.parsedUntil === page.parsedUntil && hit.lastText === lastText) return hit.rows;
  const rows: EntryRow[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.stream === 'stderr') {
      rows.push({ key: `${page.id}:${i}`, entry: { kind: 'stderr', ts: line.ts, text: line.text } });
      continue;
    }
    if (i >= page.parsedUntil) break;
    const entries = page.parsed[i] ?? [];
    entries.forEach((entry, k) => rows.push({ key: `${page.id}:${i}:${k}`, entry }));
  }
  cache.set(page, { lines: lines.length, parsedUntil: page.parsedUntil, lastText, rows });
  return rows;
}

export function windowRows(pages: readonly WindowPage[]): EntryRow[] {
  if (pages.length === 1) return pageRows(pages[0]!);
  const out: EntryRow[] = [];
  for (const p of pages) for (const r of pageRows(p)) out.push(r);
  return out;
}
