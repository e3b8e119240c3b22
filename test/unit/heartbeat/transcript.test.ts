import { describe, expect, it } from 'vitest';
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TranscriptWriter, readTranscript, transcriptPath } from '../../../main/core/heartbeat/transcript.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'transcript-'));

describe('transcripts', () => {
  it('appends records, keeps streams apart, and reads back from any offset', () => {
    const file = transcriptPath(tmp(), 'run-1');
    const w = new TranscriptWriter(file);
    const a = w.append({ stream: 'stdout', at: 1, data: 'hello\n' })!;
    const b = w.append({ stream: 'stderr', at: 2, data: 'warn "quoted" é\n' })!;
    w.close();
    expect(a.offset).toBe(0);
    expect(b.offset).toBe(a.nextOffset);
    expect(statSync(file).size).toBe(b.nextOffset);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const all = readTranscript(file, 0);
    expect(all.records).toEqual([
      { stream: 'stdout', at: 1, data: 'hello\n' },
      { stream: 'stderr', at: 2, data: 'warn "quoted" é\n' },
    ]);
    expect(all.nextOffset).toBe(b.nextOffset);
    expect(readTranscript(file, b.offset).records.map((r) => r.stream)).toEqual(['stderr']);
    // An offset in the middle of a record moves to the next one.
    expect(readTranscript(file, 3).records.map((r) => r.at)).toEqual([2]);
    expect(readTranscript(file, all.nextOffset)).toEqual({ records: [], nextOffset: all.nextOffset, size: all.size });
  });

  it('pages a large transcript in bounded reads that always move forward', () => {
    const file = transcriptPath(tmp(), 'run-2');
    const w = new TranscriptWriter(file);
    for (let i = 0; i < 5000; i++) w.append({ stream: 'stdout', at: i, data: `line ${i} ${'x'.repeat(100)}\n` });
    w.append({ stream: 'stdout', at: 5000, data: 'y'.repeat(300_000) });
    w.close();
    let offset = 0;
    let count = 0;
    for (let guard = 0; guard < 1000; guard++) {
      const page = readTranscript(file, offset, 64 * 1024);
      count += page.records.length;
      if (page.nextOffset === offset) break;
      offset = page.nextOffset;
    }
    expect(count).toBe(5001);
    expect(offset).toBe(statSync(file).size);
  });

  it('batches writes: nothing half-written is ever visible to a reader', () => {
    const file = transcriptPath(tmp(), 'run-3');
    const w = new TranscriptWriter(file);
    w.append({ stream: 'stdout', at: 1, data: 'a' });
    expect(readTranscript(file, 0).records).toEqual([]);
    w.flush();
    expect(readTranscript(file, 0).records).toHaveLength(1);
    w.close();
  });
});
