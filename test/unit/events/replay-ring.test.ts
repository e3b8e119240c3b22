import { describe, expect, it } from 'vitest';
import { ReplayRing } from '../../../main/core/events/replay-ring.js';

const seqOf = (id: string) => Number(id.slice(id.indexOf('.') + 1));

/** Pushes events `b.<from>`..`b.<to>`, each with the JSON of `payload(i)`, and returns the JSON pushed by id. */
function fill(ring: ReplayRing, from: number, to: number, payload: (i: number) => unknown): Map<string, string> {
  const pushed = new Map<string, string>();
  for (let i = from; i <= to; i++) {
    const json = JSON.stringify(payload(i));
    ring.push(`b.${i}`, 'run.log', `t${i}`, json);
    pushed.set(`b.${i}`, json);
  }
  return pushed;
}

describe('replay ring', () => {
  it('gives back every kept event byte for byte, newest always kept, across growth and wraps', () => {
    const ring = new ReplayRing(1000, 200_000);
    // Sizes that do not divide the ring, multi-byte characters and escapes: each lap leaves a gap.
    const pushed = fill(ring, 1, 400, (i) => ({ i, data: `é${'x'.repeat((i * 7919) % 9000)}\n"🙂"` }));
    const kept = ring.after(0, seqOf);
    expect(kept.at(-1)!.id).toBe('b.400');
    // Contiguous: nothing missing between the oldest kept event and the newest.
    expect(kept.map((e) => seqOf(e.id))).toEqual(kept.map((_, k) => seqOf(kept[0]!.id) + k));
    for (const e of kept) expect(e.json).toBe(pushed.get(e.id));
    expect(kept.map((e) => e.at)).toEqual(kept.map((e) => `t${seqOf(e.id)}`));
    expect(ring.lastEvicted).toBe(`b.${seqOf(kept[0]!.id) - 1}`);
    const keptBytes = kept.reduce((n, e) => n + Buffer.byteLength(e.json), 0);
    expect(ring.size).toBe(keptBytes);
    expect(keptBytes).toBeLessThanOrEqual(200_000);
    // Dropped only for room: the event before the oldest kept would not have fitted beside them.
    expect(keptBytes + Buffer.byteLength(pushed.get(ring.lastEvicted!)!)).toBeGreaterThan(200_000 - 9100);
  });

  it('bounds by count and keeps an oversize newest event alone until the next one', () => {
    const ring = new ReplayRing(3, 1000);
    fill(ring, 1, 5, (i) => ({ i }));
    expect(ring.after(0, seqOf).map((e) => e.id)).toEqual(['b.3', 'b.4', 'b.5']);
    const huge = JSON.stringify({ data: 'z'.repeat(5000) });
    ring.push('b.6', 'run.log', 't6', huge);
    expect(ring.after(0, seqOf)).toEqual([{ id: 'b.6', type: 'run.log', at: 't6', json: huge }]);
    fill(ring, 7, 8, (i) => ({ i }));
    expect(ring.after(0, seqOf).map((e) => e.json)).toEqual(['{"i":7}', '{"i":8}']);
    expect(ring.after(7, seqOf).map((e) => e.id)).toEqual(['b.8']);
    expect(ring.lastEvicted).toBe('b.6');
  });
});
