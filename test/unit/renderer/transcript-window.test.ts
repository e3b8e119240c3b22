import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TranscriptWriter, readTranscript } from '../../../main/core/heartbeat/transcript.js';
import { TranscriptWindow } from '../../../renderer/src/transcript/window.js';
import { LineBuilder } from '../../../renderer/src/transcript/lines.js';
import { shellParse } from '../../../renderer/src/transcript/parser-host.js';
import type { RunLogChunk } from '../../../renderer/src/api/run-log-bus.js';

/**
 * The window against the core's own transcript file and reader: records written by the
 * TranscriptWriter, pages read by readTranscript exactly as the log route serves them.
 */
let dir: string;
let file: string;
let writer: TranscriptWriter;
let fetches: number[];
const PAGE = 4096;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'tx-window-'));
  file = path.join(dir, 'run.jsonl');
  writer = new TranscriptWriter(file);
  fetches = [];
});
afterEach(() => {
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

function write(data: string, stream: 'stdout' | 'stderr' = 'stdout'): RunLogChunk {
  const { offset, nextOffset } = writer.append({ stream, at: Date.now(), data })!;
  writer.flush();
  return { runId: 'r', agentId: 'a', stream, offset, nextOffset, data };
}

function makeWindow(maxPages = 4, parse = true) {
  return new TranscriptWindow({
    fetchPage: async (offset) => {
      fetches.push(offset);
      const page = readTranscript(file, offset, PAGE);
      return { ...page, done: false };
    },
    pageBytes: PAGE,
    maxPages,
    ...(parse ? { parse: async (lines: { text: string; ts: string }[]) => shellParse(lines) } : {}),
  });
}

const texts = (w: TranscriptWindow) => w.getSnapshot().pages.flatMap((p) => p.builder.lines.map((l) => l.text));
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('LineBuilder', () => {
  it('joins chunks that cut lines, per stream, with stdout and stderr interleaved', () => {
    const b = new LineBuilder();
    b.add('stdout', 'hel', 0);
    b.add('stderr', 'warn\n', 0);
    b.add('stdout', 'lo\nwor', 0);
    b.add('stdout', 'ld\n\n', 0);
    expect(b.lines.map((l) => [l.stream, l.text, l.open])).toEqual([
      ['stdout', 'hello', false],
      ['stderr', 'warn', false],
      ['stdout', 'world', false],
      ['stdout', '', false],
    ]);
    b.add('stdout', 'tail', 0);
    expect(b.lines.at(-1)).toMatchObject({ text: 'tail', open: true });
    expect(b.completeStdoutUntil).toBe(4);
  });
});

describe('TranscriptWindow', () => {
  it('reads a small transcript whole, then follows live chunks by offset without duplicates or gaps', async () => {
    for (let i = 0; i < 5; i++) write(`line ${i}\n`);
    const w = makeWindow();
    const early = write('line 5\n'); // published while the replay may still be reading
    w.push(early);
    await w.open();
    expect(texts(w)).toEqual(['line 0', 'line 1', 'line 2', 'line 3', 'line 4', 'line 5']);

    const c6 = write('line 6\n');
    w.push(c6);
    w.push(c6); // the same event twice (a reconnect replays it)
    w.push(early); // an old one
    expect(texts(w).slice(-2)).toEqual(['line 5', 'line 6']);

    // A chunk lost on the stream: the next one is ahead of what is held, so the log route fills the gap.
    write('line 7\n');
    const c8 = write('line 8\n');
    w.push(c8);
    await settle();
    await w.loadAfter();
    expect(texts(w).slice(-3)).toEqual(['line 6', 'line 7', 'line 8']);
    expect(w.getSnapshot().atLiveEnd).toBe(true);
  });

  it('opens a large transcript at its live end and never holds more than maxPages pages', async () => {
    const line = 'x'.repeat(200);
    for (let i = 0; i < 400; i++) write(`${i} ${line}\n`); // ~90 KB, ~22 pages of 4 KB
    const w = makeWindow(4);
    await w.open();
    const snap = w.getSnapshot();
    expect(snap.atLiveEnd).toBe(true);
    expect(snap.pages.length).toBeLessThanOrEqual(4);
    expect(snap.start).toBeGreaterThan(0);
    expect(texts(w).at(-1)).toBe(`399 ${line}`);
    expect(w.heldChars).toBeLessThanOrEqual(4 * PAGE);
    // It did not read the transcript from the start.
    expect(fetches.filter((o) => o > 0 && o < snap.start - PAGE)).toEqual([]);
  });

  it('pages backwards by offset to the very start, exactly, dropping pages at the far end', async () => {
    const all: string[] = [];
    for (let i = 0; i < 300; i++) {
      all.push(`line ${i} ${'y'.repeat(i % 50)}`);
      write(`${all[i]}\n`, i % 7 === 0 ? 'stderr' : 'stdout');
    }
    const w = makeWindow(3);
    await w.open();
    const seen = new Set(texts(w));
    let guard = 0;
    while (w.start > 0 && guard++ < 200) {
      const before = w.start;
      const added = await w.loadBefore();
      expect(added).toBeGreaterThan(0);
      expect(w.start).toBeLessThan(before);
      expect(w.getSnapshot().pages.length).toBeLessThanOrEqual(3);
      // Contiguous: each page ends where the next starts.
      const pages = w.getSnapshot().pages;
      for (let i = 1; i < pages.length; i++) expect(pages[i]!.start).toBe(pages[i - 1]!.end);
      for (const t of texts(w)) seen.add(t);
    }
    expect(w.start).toBe(0);
    expect(texts(w)[0]).toBe(all[0]);
    expect(seen).toEqual(new Set(all));
    expect(w.getSnapshot().atLiveEnd).toBe(false);

    // Scrolling back down reads forward again up to the live end.
    guard = 0;
    while (!w.getSnapshot().atLiveEnd && guard++ < 200) await w.loadAfter();
    expect(texts(w).at(-1)).toBe(all.at(-1));
  });

  it('while the reader is scrolled up and the window is full, live output waits; jump to live reopens at the end', async () => {
    for (let i = 0; i < 200; i++) write(`old ${i} ${'z'.repeat(100)}\n`);
    const w = makeWindow(2);
    await w.open();
    w.setFollowing(false);
    while (w.getSnapshot().atLiveEnd) await w.loadBefore();
    const endBefore = w.end;
    const c = write('new output\n');
    w.push(c);
    expect(w.end).toBe(endBefore);
    expect(w.getSnapshot().size).toBe(c.nextOffset);
    expect(w.getSnapshot().atLiveEnd).toBe(false);
    await w.jumpToLive();
    expect(w.getSnapshot().atLiveEnd).toBe(true);
    expect(texts(w).at(-1)).toBe('new output');
  });

  it('a reader scrolled back is never dragged to the live end: neither live output nor catching up moves a detached window', async () => {
    for (let i = 0; i < 200; i++) write(`old ${i} ${'z'.repeat(100)}\n`);
    const w = makeWindow(3);
    await w.open();
    w.setFollowing(false);
    for (let i = 0; i < 4; i++) await w.loadBefore();
    const held = { start: w.start, end: w.end, first: texts(w)[0] };
    expect(w.getSnapshot().atLiveEnd).toBe(false);
    // Live output arrives past the window (so past a gap), and the run ends (the panel catches up).
    for (let i = 0; i < 5; i++) w.push(write(`live ${i}\n`));
    await new Promise((r) => setTimeout(r, 400));
    await w.catchUp();
    await new Promise((r) => setTimeout(r, 400));
    expect({ start: w.start, end: w.end, first: texts(w)[0] }).toEqual(held);
    expect(w.getSnapshot().size).toBeGreaterThan(held.end);
    // Coming back down still reads forward to the end, page by page.
    let guard = 0;
    while (!w.getSnapshot().atLiveEnd && guard++ < 100) await w.loadAfter();
    expect(texts(w).at(-1)).toBe('live 4');
  });

  it('keeps memory bounded while following a long live run', async () => {
    write('start\n');
    const w = makeWindow(3);
    await w.open();
    let maxChars = 0;
    for (let i = 0; i < 2000; i++) {
      // Chunks that cut lines in the middle.
      w.push(write(i % 2 ? `${'q'.repeat(60)}\n` : `chunk ${i} `));
      maxChars = Math.max(maxChars, w.heldChars);
    }
    await settle();
    expect(w.getSnapshot().pages.length).toBeLessThanOrEqual(3);
    expect(maxChars).toBeLessThanOrEqual(3 * PAGE + 200);
    expect(texts(w).at(-1)).toBe(`chunk 1998 ${'q'.repeat(60)}`);
    expect(w.getSnapshot().atLiveEnd).toBe(true);
  });

  it('parses complete stdout lines only, and every one of them once', async () => {
    const parsed: string[] = [];
    const w = new TranscriptWindow({
      fetchPage: async (offset) => ({ ...readTranscript(file, offset, PAGE), done: false }),
      pageBytes: PAGE,
      parse: async (lines) => {
        parsed.push(...lines.map((l) => l.text));
        return shellParse(lines);
      },
    });
    write('a\nb');
    await w.open();
    await settle();
    expect(parsed).toEqual(['a']);
    w.push(write('c\n'));
    w.push(write('oops\n', 'stderr'));
    await settle();
    await settle();
    expect(parsed).toEqual(['a', 'bc']);
    const page = w.getSnapshot().pages[0]!;
    expect(page.parsed[1]).toEqual([{ kind: 'stdout', ts: expect.any(String), text: 'bc' }]);
  });
});

describe('page boundaries', () => {
  it('closes a line cut at a page boundary, so parsing and the terminal never wait on it', async () => {
    // Records that cut lines in the middle, over several pages.
    for (let i = 0; i < 120; i++) write(`part ${i} ${'w'.repeat(90)}${i % 3 === 2 ? '\n' : ' '}`);
    const w = makeWindow(8);
    await w.open();
    await settle();
    await settle();
    const pages = w.getSnapshot().pages;
    expect(pages.length).toBeGreaterThan(1);
    for (const p of pages.slice(0, -1)) {
      expect(p.builder.lines.every((l) => !l.open)).toBe(true);
      expect(p.parsedUntil).toBe(p.builder.lines.length);
    }
  });
});

describe('live chunks ahead of the file', () => {
  it('reads what it missed once the core has flushed it (transcript writes are batched)', async () => {
    write('first\n');
    const w = makeWindow();
    await w.open();
    // Published on the stream before the subscriber existed, and not yet in the file.
    const missed = writer.append({ stream: 'stdout', at: Date.now(), data: 'missed\n' })!;
    const next = writer.append({ stream: 'stdout', at: Date.now(), data: 'next\n' })!;
    w.push({ runId: 'r', agentId: 'a', stream: 'stdout', ...next, data: 'next\n' });
    expect(missed.nextOffset).toBe(next.offset);
    await settle();
    expect(texts(w)).toEqual(['first']);
    writer.flush();
    await new Promise((r) => setTimeout(r, 400));
    expect(texts(w)).toEqual(['first', 'missed', 'next']);
    expect(w.getSnapshot().atLiveEnd).toBe(true);
    w.dispose();
  });
});
