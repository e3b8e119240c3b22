import type { RunLogRecord } from '../api/types.js';

/** One displayed line of a transcript: text without its newline, from one stream. */
export interface TranscriptLine {
  stream: 'stdout' | 'stderr';
  text: string;
  /** ISO time the line's first chunk was received. */
  ts: string;
  /** Still being written (no newline yet): the next chunk of its stream extends it. */
  open: boolean;
}

const encoder = new TextEncoder();

/**
 * Bytes a record takes in the transcript file (main/core/heartbeat/transcript.ts writes one JSON
 * line `{"s","t","d"}` per record). The log route does not say where a page starts, so the renderer
 * recomputes record sizes to place records by byte offset when it reads backwards.
 */
export function recordBytes(r: RunLogRecord): number {
  return encoder.encode(JSON.stringify({ s: r.stream === 'stdout' ? 'o' : 'e', t: r.at, d: r.data })).length + 1;
}

/**
 * Appends chunks to a list of lines, joining a chunk to its stream's open line: output arrives in
 * pipe-sized pieces that cut lines anywhere, and stdout and stderr interleave.
 */
export class LineBuilder {
  readonly lines: TranscriptLine[] = [];
  /** Index of each stream's open line, or -1. */
  private readonly openAt: Record<'stdout' | 'stderr', number> = { stdout: -1, stderr: -1 };

  add(stream: 'stdout' | 'stderr', data: string, at: number): void {
    if (data === '') return;
    const parts = data.split('\n');
    const ts = new Date(at).toISOString();
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      const last = i === parts.length - 1;
      // The chunk ended with a newline: nothing stays open.
      if (last && part === '') {
        this.openAt[stream] = -1;
        break;
      }
      const open = this.openAt[stream];
      if (i === 0 && open >= 0) {
        const line = this.lines[open]!;
        this.lines[open] = { ...line, text: line.text + part, open: last };
        this.openAt[stream] = last ? open : -1;
      } else {
        this.lines.push({ stream, text: part, ts, open: last });
        this.openAt[stream] = last ? this.lines.length - 1 : -1;
      }
    }
  }

  /**
   * Ends the open lines: called when the page is no longer the one output goes to (a new page
   * started after it, or it was read before the window), so nothing will extend them.
   */
  closeAll(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      const i = this.openAt[stream];
      if (i >= 0) this.lines[i] = { ...this.lines[i]!, open: false };
      this.openAt[stream] = -1;
    }
  }

  /** Index of the first stdout line still open (parsing waits for it), or the line count. */
  get completeStdoutUntil(): number {
    return this.openAt.stdout >= 0 ? this.openAt.stdout : this.lines.length;
  }
}
