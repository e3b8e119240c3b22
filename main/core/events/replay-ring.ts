/** Where a ring starts: most companies' events never need more. */
const MIN_CAPACITY = 64 * 1024;

/** One kept event: its serialized data lies at `start` in the ring (or in `oversize`). */
export interface RingEntry {
  id: string;
  type: string;
  at: string;
  start: number;
  bytes: number;
  /** An event larger than the whole ring is kept alone, as its own string. */
  oversize?: string;
}

/** A kept event as replay hands it out: its data serialized, as it goes on the wire. */
export interface KeptEvent {
  id: string;
  type: string;
  at: string;
  json: string;
}

/**
 * The replay buffer of one company: its newest events' serialized data (at most `maxEvents` events
 * and `maxBytes` bytes of UTF-8, the newest event always) copied into one byte buffer that is
 * reused round and round.
 *
 * Why not keep each event's string: run output travels as events of up to 64 KiB, and a string
 * kept for the next few megabytes of output outlives the young generation's collections, so V8
 * promotes it. A 50 MiB run then left about 85 MiB of promoted, already-evicted strings in the old
 * space before a full collection freed them (bench/README.md). Here a kept event costs a small
 * entry; its bytes go into memory allocated once per company (grown by doubling up to `maxBytes`).
 *
 * Layout: events are written one after another; one that does not fit before the end goes to the
 * start (the gap left at the end is unused), and the oldest events in the way are dropped. Kept
 * events thus lie in at most two laps: the older from the oldest entry on, the newer before `end`.
 */
export class ReplayRing {
  private buf = Buffer.alloc(0);
  /** Oldest first. */
  private readonly entries: RingEntry[] = [];
  /** Where the next event's bytes go. */
  private end = 0;
  private used = 0;
  /** The id of the newest event dropped so far, if any. */
  lastEvicted: string | undefined;

  constructor(
    private readonly maxEvents: number,
    private readonly maxBytes: number,
  ) {}

  push(id: string, type: string, at: string, json: string): void {
    const bytes = Buffer.byteLength(json);
    while (this.entries.length > 0 && (this.entries.length >= this.maxEvents || this.used + bytes > this.maxBytes)) this.evictOldest();
    if (bytes > this.maxBytes) {
      this.entries.push({ id, type, at, start: 0, bytes, oversize: json });
      this.used = bytes;
      return;
    }
    if (this.used + bytes > this.buf.length && this.buf.length < this.maxBytes) this.grow(this.used + bytes);
    if (this.end + bytes > this.buf.length) {
      // The older lap lies from `end` on: it goes first, then the newer one is overwritten from the start.
      while (this.entries.length > 0 && this.entries[0]!.start >= this.end) this.evictOldest();
      this.end = 0;
    }
    while (this.entries.length > 0 && this.entries[0]!.start < this.end + bytes && this.end < this.entries[0]!.start + this.entries[0]!.bytes) this.evictOldest();
    this.buf.write(json, this.end, bytes, 'utf8');
    this.entries.push({ id, type, at, start: this.end, bytes });
    this.end += bytes;
    this.used += bytes;
  }

  /** The kept events after `seq` (ids are `<boot>.<seq>`, increasing), oldest first. */
  after(seq: number, seqOf: (id: string) => number): KeptEvent[] {
    return this.entries
      .filter((e) => seqOf(e.id) > seq)
      .map((e) => ({ id: e.id, type: e.type, at: e.at, json: e.oversize ?? this.buf.toString('utf8', e.start, e.start + e.bytes) }));
  }

  /** Bytes of serialized data kept. */
  get size(): number {
    return this.used;
  }

  private evictOldest(): void {
    const e = this.entries.shift()!;
    this.used -= e.bytes;
    this.lastEvicted = e.id;
    if (this.entries.length === 0) this.end = 0;
  }

  /** A larger buffer with the kept events copied to its start, in order. */
  private grow(needed: number): void {
    let capacity = Math.max(MIN_CAPACITY, this.buf.length);
    while (capacity < needed) capacity *= 2;
    const next = Buffer.alloc(Math.min(this.maxBytes, capacity));
    let at = 0;
    for (const e of this.entries) {
      if (e.oversize === undefined) this.buf.copy(next, at, e.start, e.start + e.bytes);
      e.start = at;
      at += e.bytes;
    }
    this.buf = next;
    this.end = at;
  }
}
