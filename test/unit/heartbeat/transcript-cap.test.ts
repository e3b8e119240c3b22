import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TranscriptWriter, readTranscript, transcriptPath, type TranscriptRecord } from '../../../main/core/heartbeat/transcript.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'transcript-cap-'));
const MiB = 1024 * 1024;

/** Every record of a transcript, read the way the log route pages it. */
function readAll(file: string): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (let offset = 0; ; ) {
    const page = readTranscript(file, offset);
    out.push(...page.records);
    if (page.nextOffset === offset) return out;
    offset = page.nextOffset;
  }
}

describe('a transcript cap', () => {
  it('keeps the head and the tail of a flood with a marker between, within the cap', () => {
    const dir = tmp();
    const file = transcriptPath(dir, 'run-flood');
    const w = new TranscriptWriter(file, MiB);
    const line = (i: number) => `line ${String(i).padStart(7, '0')} ${'x'.repeat(90)}\n`;
    let placed = 0;
    const total = 200_000; // ~20 MiB of output
    for (let i = 0; i < total; i++) if (w.append({ stream: 'stdout', at: i, data: line(i) })) placed++;
    expect(w.truncated).toBe(true);
    w.close();
    expect(statSync(file).size).toBeLessThanOrEqual(MiB);
    expect(w.size).toBe(statSync(file).size);
    // The segment files are merged and gone.
    expect(readdirSync(dir)).toEqual(['run-flood.jsonl']);
    const records = readAll(file);
    const out = records.filter((r) => r.stream === 'stdout').map((r) => r.data);
    const markers = records.filter((r) => r.stream === 'stderr').map((r) => r.data);
    expect(markers).toHaveLength(2);
    expect(markers[0]).toContain('output truncated');
    expect(markers[1]).toMatch(/dropped here; the last .* follow/);
    // Head: lines 0.. in order, exactly the records that got a file offset while the run ran.
    expect(out.slice(0, placed)).toEqual(Array.from({ length: placed }, (_, i) => line(i)));
    // Tail: the last lines, contiguous up to the very last one.
    const tail = out.slice(placed);
    expect(tail.at(-1)).toBe(line(total - 1));
    const first = Number(tail[0]!.slice(5, 12));
    expect(tail).toEqual(Array.from({ length: tail.length }, (_, i) => line(first + i)));
    // Roughly half the cap each side, and what was dropped is what is missing.
    expect(placed * line(0).length).toBeGreaterThan(0.35 * MiB);
    expect(tail.length * line(0).length).toBeGreaterThan(0.15 * MiB);
    expect(w.droppedBytes).toBeGreaterThan(18 * MiB);
    // The order of records in the file: head, marker, marker, tail.
    expect(records[placed]!.stream).toBe('stderr');
    expect(records[placed + 1]!.stream).toBe('stderr');
  });

  it('does not truncate output within the cap, and then leaves no segment files', () => {
    const dir = tmp();
    const file = transcriptPath(dir, 'run-small');
    const w = new TranscriptWriter(file, MiB);
    for (let i = 0; i < 100; i++) expect(w.append({ stream: 'stdout', at: i, data: `${i}\n` })).not.toBeNull();
    w.close();
    expect(w.truncated).toBe(false);
    expect(w.droppedBytes).toBe(0);
    expect(readAll(file)).toHaveLength(100);
    expect(readdirSync(dir)).toEqual(['run-small.jsonl']);
  });

  it('cuts a single chunk larger than a tail segment into records that fit, keeping its end', () => {
    const file = transcriptPath(tmp(), 'run-big-chunk');
    const w = new TranscriptWriter(file, MiB);
    // Quotes and control characters grow when JSON-escaped; an emoji must not be cut in half.
    const big = `${'a"\u0001😀'.repeat(300_000)}THE END`;
    w.append({ stream: 'stdout', at: 1, data: big });
    w.close();
    expect(statSync(file).size).toBeLessThanOrEqual(MiB);
    const records = readAll(file);
    const text = records.filter((r) => r.stream === 'stdout').map((r) => r.data).join('');
    expect(text.endsWith('THE END')).toBe(true);
    expect(big.endsWith(text)).toBe(true);
    expect(existsSync(`${file}.tail0`)).toBe(false);
  });
});
