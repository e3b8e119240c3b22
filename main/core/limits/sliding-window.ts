/**
 * A sliding-window log: per key, the times and weights of what was let through in the last
 * `windowMs`. Exactly `limit` units fit in any window, the next one does not, whatever the pace
 * of the caller, so a limit holds at its boundary (a token bucket would refill in between).
 * Memory is bounded by what the limits let through: a key holds at most one entry per accepted
 * request of the last window, and idle keys are dropped.
 */
export class SlidingWindow {
  private readonly log = new Map<string, { at: number; weight: number }[]>();

  constructor(readonly windowMs = 60_000) {}

  private live(key: string, now: number): { at: number; weight: number }[] {
    const entries = this.log.get(key);
    if (!entries) return [];
    let drop = 0;
    while (drop < entries.length && entries[drop]!.at <= now - this.windowMs) drop++;
    if (drop > 0) entries.splice(0, drop);
    if (entries.length === 0) this.log.delete(key);
    return entries;
  }

  /** Units used in the window ending now. */
  used(key: string, now: number): number {
    return this.live(key, now).reduce((n, e) => n + e.weight, 0);
  }

  /**
   * Whether `weight` more units fit under `limit` now; when not, the milliseconds until enough of
   * the window has passed (never more than the window).
   */
  check(key: string, now: number, weight: number, limit: number): { ok: true } | { ok: false; retryAfterMs: number } {
    const entries = this.live(key, now);
    let used = entries.reduce((n, e) => n + e.weight, 0);
    if (used + weight <= limit) return { ok: true };
    for (const e of entries) {
      used -= e.weight;
      if (used + weight <= limit) return { ok: false, retryAfterMs: Math.max(1, e.at + this.windowMs - now) };
    }
    return { ok: false, retryAfterMs: this.windowMs };
  }

  /** Counts `weight` units now; returns how to take them back (`forget`). */
  record(key: string, now: number, weight: number): () => void {
    const entries = this.live(key, now);
    const entry = { at: now, weight };
    entries.push(entry);
    this.log.set(key, entries);
    if (this.log.size > 10_000) this.sweep(now);
    return () => this.forget(key, entry);
  }

  /** Takes back one recorded entry (a write that was counted, then not saved). */
  private forget(key: string, entry: { at: number; weight: number }): void {
    const entries = this.log.get(key);
    const at = entries?.indexOf(entry) ?? -1;
    if (!entries || at < 0) return;
    entries.splice(at, 1);
    if (entries.length === 0) this.log.delete(key);
  }

  private sweep(now: number): void {
    for (const key of [...this.log.keys()]) this.live(key, now);
  }
}
