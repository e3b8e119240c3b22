/**
 * The server-side half of every stream-JSON / JSONL agent CLI: one JSON object per line, anything
 * else (stderr under a PTY, terminal noise, a crash trace) kept as plain text for error
 * classification. A vendor's state extends this and says only what its events mean (`read`).
 */
export type JsonEvent = Record<string, unknown>;

/** At most this many plain lines are kept: enough for any error message, bounded for a chatty CLI. */
export const PLAIN_LINES_KEPT = 200;

export abstract class JsonLineState {
  readonly plainLines: string[] = [];

  /** Reads one whole line; returns its event, or null for a blank or non-JSON line. */
  push(line: string): JsonEvent | null {
    const trimmed = line.trim();
    if (!trimmed) return null;
    let event: unknown = null;
    try {
      event = trimmed.startsWith('{') ? JSON.parse(trimmed) : null;
    } catch {
      event = null;
    }
    if (!event || typeof event !== 'object' || Array.isArray(event)) {
      if (this.plainLines.length < PLAIN_LINES_KEPT) this.plainLines.push(trimmed);
      return null;
    }
    this.read(event as JsonEvent);
    return event as JsonEvent;
  }

  /** What one event tells the run (session, model, usage, answer, errors). */
  protected abstract read(event: JsonEvent): void;

  /** The last few plain lines, as one message: what a CLI printed before it failed. */
  plainTail(n = 3): string {
    return this.plainLines.slice(-n).join(' / ');
  }
}

/** A finite, non-negative number, else 0: token counts and costs from untrusted JSON. */
export const nonNegative = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
