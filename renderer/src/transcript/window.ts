import type { RunLogChunk } from '../api/run-log-bus.js';
import type { RunLogPage } from '../api/types.js';
import type { TranscriptEntry } from '../../../adapters/utils/src/transcript.js';
import { LineBuilder, recordBytes } from './lines.js';

/** A contiguous byte range of the transcript file, as lines (and, once parsed, entries). */
export interface WindowPage {
  /** Stable key for the page's rows. */
  id: number;
  start: number;
  end: number;
  builder: LineBuilder;
  /** Parsed entries per line index (stdout lines below `parsedUntil`; stderr lines are not parsed). */
  parsed: (TranscriptEntry[] | undefined)[];
  parsedUntil: number;
}

export interface WindowSnapshot {
  version: number;
  pages: readonly WindowPage[];
  /** Byte range held: [start, end). */
  start: number;
  end: number;
  /** Bytes the transcript is known to have (the log route's size, or the last live chunk's end). */
  size: number;
  /** The window reaches the live end: new output is appended to it. */
  atLiveEnd: boolean;
  loading: 'before' | 'after' | 'live' | null;
  error: unknown;
}

export type LineParser = (lines: { text: string; ts: string }[]) => Promise<TranscriptEntry[][]>;

export interface TranscriptWindowOptions {
  /** `GET /api/heartbeat-runs/{id}/log?offset=N`. */
  fetchPage: (offset: number) => Promise<RunLogPage>;
  /** Bytes one page of the log route holds at most (the core reads 256 KiB). */
  pageBytes?: number;
  /** Pages held at most: the whole window never exceeds maxPages × pageBytes of text. */
  maxPages?: number;
  parse?: LineParser;
}

/**
 * The part of a run's transcript the board holds: a bounded window of pages of the log, never the
 * whole transcript (DESIGN.md). It opens at the live end (or reads a small transcript whole), pages
 * backwards and forwards by byte offset as the reader scrolls, dropping pages at the far side, and
 * appends `run.log` chunks placed by offset: a chunk that ends at or before what is held is a
 * duplicate, one that starts beyond it means something was missed and the log route fills the gap.
 * While the reader is scrolled up (not following) and the window is full, live output is not taken
 * in; it is read by offset when they come back down.
 */
export class TranscriptWindow {
  private pages: WindowPage[] = [];
  private size = 0;
  private nextId = 1;
  private version = 0;
  private loading: WindowSnapshot['loading'] = null;
  private error: unknown = null;
  private following = true;
  private pending: RunLogChunk[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private busy = 0;
  private disposed = false;
  /** Which open() the queued reads belong to: a read queued before dispose() never lands after a reopen. */
  private session = 0;
  private parsing = false;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private snapshot: WindowSnapshot;
  private readonly listeners = new Set<() => void>();
  private parse: LineParser | undefined;
  readonly pageBytes: number;
  readonly maxPages: number;

  constructor(private readonly options: TranscriptWindowOptions) {
    this.pageBytes = options.pageBytes ?? 256 * 1024;
    this.maxPages = Math.max(2, options.maxPages ?? 6);
    this.parse = options.parse;
    this.snapshot = this.makeSnapshot();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): WindowSnapshot => this.snapshot;

  get start(): number {
    return this.pages[0]?.start ?? 0;
  }

  get end(): number {
    return this.pages.at(-1)?.end ?? 0;
  }

  /** Lines held now (for tests and the memory bound). */
  get heldLines(): number {
    return this.pages.reduce((n, p) => n + p.builder.lines.length, 0);
  }

  /** Text held now, in UTF-16 code units. */
  get heldChars(): number {
    return this.pages.reduce((n, p) => n + p.builder.lines.reduce((m, l) => m + l.text.length, 0), 0);
  }

  /**
   * Opens the transcript: a small one is read whole, a large one at its live end. A disposed window
   * may be opened again (React's StrictMode closes and reopens every effect once in development).
   */
  open(): Promise<void> {
    this.disposed = false;
    return this.run('live', async () => {
      const first = await this.options.fetchPage(0);
      this.size = Math.max(this.size, first.size);
      if (first.size <= this.pageBytes * (this.maxPages - 1)) {
        this.pages = [];
        this.appendPage(0, first);
        await this.readForward();
      } else {
        await this.readTail();
      }
    });
  }

  /** The parser of lines to come (the panel's parser host lives as long as its effect). */
  setParser(parse: LineParser | undefined): void {
    this.parse = parse;
  }

  /** Whether live output may push older pages out (the reader is at the bottom). */
  setFollowing(following: boolean): void {
    this.following = following;
    if (following && !this.atLiveEnd && this.pages.length > 0 && !this.busy) void this.loadAfter();
  }

  push(chunk: RunLogChunk): void {
    if (this.disposed) return;
    this.pending.push(chunk);
    if (!this.busy) this.drain();
  }

  /** Reads the page before the window; resolves to the number of lines added at the top. */
  loadBefore(): Promise<number> {
    return this.run('before', async () => {
      const start = this.start;
      if (start <= 0 || this.pages.length === 0) return 0;
      // The log route reads forward from a record boundary at or after the offset it is given;
      // step back far enough that at least one record ends before the window.
      for (let back = this.pageBytes; ; back *= 2) {
        const from = Math.max(0, start - back);
        const page = await this.options.fetchPage(from);
        this.size = Math.max(this.size, page.size);
        let offset = page.nextOffset - page.records.reduce((n, r) => n + recordBytes(r), 0);
        const pageStart = offset;
        const builder = new LineBuilder();
        for (const r of page.records) {
          if (offset >= start) break;
          builder.add(r.stream, r.data, r.at);
          offset += recordBytes(r);
        }
        if (offset > pageStart || from === 0) {
          builder.closeAll();
          this.pages.unshift(this.newPage(pageStart, Math.min(offset, start), builder));
          while (this.pages.length > this.maxPages) this.pages.pop();
          return builder.lines.length;
        }
      }
    }).then((n) => n ?? 0);
  }

  /** Reads the page after the window (the reader scrolled down, or came back to follow). */
  loadAfter(): Promise<void> {
    return this.run('after', async () => {
      if (this.pages.length === 0) return;
      const page = await this.options.fetchPage(this.end);
      this.size = Math.max(this.size, page.size);
      if (page.nextOffset > this.end) this.appendPage(this.end, page);
      while (this.pages.length > this.maxPages) this.pages.shift();
    }).then(() => undefined);
  }

  /** Drops the window and reopens it at the live end ("jump to live"). */
  jumpToLive(): Promise<void> {
    this.following = true;
    return this.run('live', () => this.readTail());
  }

  /** Stops reading and drops what is held; subscribers stay (they unsubscribe themselves). */
  dispose(): void {
    this.disposed = true;
    this.session++;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.pages = [];
    this.pending = [];
    this.size = 0;
    this.error = null;
  }

  private get atLiveEnd(): boolean {
    return this.pages.length > 0 && this.end >= this.size;
  }

  private async readTail(): Promise<void> {
    const latest = await this.options.fetchPage(Math.max(0, this.size - this.pageBytes));
    this.size = Math.max(this.size, latest.size);
    const total = latest.records.reduce((n, r) => n + recordBytes(r), 0);
    this.pages = [];
    this.appendPage(latest.nextOffset - total, latest);
    await this.readForward();
  }

  /**
   * Reads on from the window's end until the live end. Bounded: with `dropFirst`, the first pages
   * are dropped (opening, following); without it, reading stops once the window is full, so the
   * pages a reader scrolled back to are never pushed out from under them.
   */
  private async readForward(dropFirst = true): Promise<void> {
    for (;;) {
      if (this.disposed || this.end >= this.size) return;
      if (!dropFirst && this.pages.length >= this.maxPages) return;
      const from = this.end;
      const page = await this.options.fetchPage(from);
      this.size = Math.max(this.size, page.size);
      if (page.nextOffset <= from) return;
      this.appendPage(from, page);
      while (this.pages.length > this.maxPages) this.pages.shift();
    }
  }

  private appendPage(start: number, page: RunLogPage): void {
    this.pages.at(-1)?.builder.closeAll();
    const builder = new LineBuilder();
    for (const r of page.records) builder.add(r.stream, r.data, r.at);
    this.pages.push(this.newPage(start, page.nextOffset, builder));
  }

  private newPage(start: number, end: number, builder: LineBuilder): WindowPage {
    return { id: this.nextId++, start, end, builder, parsed: [], parsedUntil: 0 };
  }

  /** Runs one read at a time; live chunks wait in `pending` and are applied after it. */
  private run<T>(kind: NonNullable<WindowSnapshot['loading']>, fn: () => Promise<T>): Promise<T | undefined> {
    const session = this.session;
    const task = this.queue.then(async () => {
      if (this.disposed || session !== this.session) return undefined;
      this.busy++;
      this.loading = kind;
      this.emit();
      try {
        const result = await fn();
        this.error = null;
        return result;
      } catch (err) {
        this.error = err;
        return undefined;
      } finally {
        this.busy--;
        this.loading = null;
        if (!this.disposed) this.drain();
      }
    });
    this.queue = task.catch(() => undefined);
    return task;
  }

  private drain(): void {
    this.pending.sort((a, b) => a.offset - b.offset);
    let gap = false;
    while (this.pending.length) {
      const chunk = this.pending.shift()!;
      if (this.pages.length === 0) continue;
      // Whether the window held everything known before this chunk: only then is a chunk that
      // starts past its end a gap. A window the reader scrolled back from the end expects them.
      const attached = this.end >= this.size;
      this.size = Math.max(this.size, chunk.nextOffset);
      if (chunk.nextOffset <= this.end) continue; // already held
      if (chunk.offset > this.end) {
        // Missed output (a dropped stream, chunks published before we subscribed): read it by offset.
        if (attached || this.following) gap = true;
        continue;
      }
      if (!this.mayGrow()) continue;
      let tail = this.pages.at(-1)!;
      if (tail.end - tail.start >= this.pageBytes) {
        tail.builder.closeAll();
        tail = this.newPage(tail.end, tail.end, new LineBuilder());
        this.pages.push(tail);
        while (this.pages.length > this.maxPages) this.pages.shift();
      }
      tail.builder.add(chunk.stream, chunk.data, Date.now());
      tail.end = chunk.nextOffset;
    }
    this.emit();
    if (gap && this.mayGrow()) void this.catchUp();
  }

  /**
   * Reads on by offset up to the known end. The core batches transcript writes (up to 100 ms), so
   * the file can lag the live chunks: while it does, try again shortly. While the reader is
   * scrolled up it only fills the room the window has left.
   */
  catchUp(): Promise<void> {
    return this.run('after', () => this.readForward(this.following)).then(() => {
      if (this.disposed || this.retry || this.end >= this.size || !this.mayGrow()) return;
      if (!this.following && this.pages.length >= this.maxPages) return;
      this.retry = setTimeout(() => {
        this.retry = undefined;
        void this.catchUp();
      }, 250);
    });
  }

  /** Live output may be taken in while following, or while the window has room. */
  private mayGrow(): boolean {
    if (this.following) return true;
    const tail = this.pages.at(-1);
    return this.pages.length < this.maxPages || (!!tail && tail.end - tail.start < this.pageBytes);
  }

  private makeSnapshot(): WindowSnapshot {
    return {
      version: this.version,
      pages: this.pages.slice(),
      start: this.start,
      end: this.end,
      size: this.size,
      atLiveEnd: this.atLiveEnd,
      loading: this.loading,
      error: this.error,
    };
  }

  private emit(): void {
    if (this.disposed) return;
    this.version++;
    this.snapshot = this.makeSnapshot();
    for (const l of this.listeners) l();
    this.scheduleParse();
  }

  /** Parses complete stdout lines not parsed yet, one batch at a time. */
  private scheduleParse(): void {
    const parse = this.parse;
    if (!parse || this.parsing) return;
    const page = this.pages.find((p) => p.parsedUntil < p.builder.completeStdoutUntil);
    if (!page) return;
    const from = page.parsedUntil;
    const until = page.builder.completeStdoutUntil;
    const indexes: number[] = [];
    const batch: { text: string; ts: string }[] = [];
    for (let i = from; i < until; i++) {
      const line = page.builder.lines[i]!;
      if (line.stream !== 'stdout') continue;
      indexes.push(i);
      batch.push({ text: line.text, ts: line.ts });
    }
    this.parsing = true;
    void parse(batch)
      .then((entries) => {
        if (!this.pages.includes(page)) return;
        indexes.forEach((lineIndex, k) => (page.parsed[lineIndex] = entries[k] ?? []));
        page.parsedUntil = until;
      })
      .catch(() => {
        // The parser host falls back to the shell parser itself; a failure here leaves the lines raw.
        if (this.pages.includes(page)) {
          indexes.forEach((lineIndex) => (page.parsed[lineIndex] = [{ kind: 'stdout', ts: page.builder.lines[lineIndex]!.ts, text: page.builder.lines[lineIndex]!.text }]));
          page.parsedUntil = until;
        }
      })
      .finally(() => {
        this.parsing = false;
        this.emit();
      });
  }
}
