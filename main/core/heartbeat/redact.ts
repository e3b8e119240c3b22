/** Values shorter than this are not redacted: masking every "1" or "ok" would wreck transcripts. */
export const MIN_REDACTED_LENGTH = 4;
export const REDACTED = '[redacted]';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Streaming redaction of secret values. A value split across two chunks is still caught: the last
 * (longest secret - 1) characters are held back until the next chunk (or `end()`) shows whether
 * they start a secret.
 */
export class StreamRedactor {
  private readonly pattern: RegExp | null;
  private readonly holdBack: number;
  private pending = '';

  constructor(secrets: readonly string[]) {
    const values = [...new Set(secrets.filter((s) => s.length >= MIN_REDACTED_LENGTH))].sort((a, b) => b.length - a.length);
    this.pattern = values.length ? new RegExp(values.map(escape).join('|'), 'g') : null;
    this.holdBack = values.length ? values[0]!.length - 1 : 0;
  }

  /** Redacted text that is safe to emit now (possibly empty). */
  push(chunk: string): string {
    if (!this.pattern) return chunk;
    const text = this.pending + chunk;
    let cut = Math.max(0, text.length - this.holdBack);
    // A complete match that straddles the cut is emitted whole rather than split.
    for (const m of text.matchAll(this.pattern)) {
      const end = m.index + m[0].length;
      if (m.index < cut && end > cut) cut = end;
    }
    this.pending = text.slice(cut);
    return text.slice(0, cut).replace(this.pattern, REDACTED);
  }

  /** Whatever was held back, redacted. */
  end(): string {
    const rest = this.pending;
    this.pending = '';
    return this.pattern ? rest.replace(this.pattern, REDACTED) : rest;
  }
}

/** One-shot redaction for text that is not a stream (errors, command lines, responses). */
export function redact(text: string, secrets: readonly string[]): string {
  const r = new StreamRedactor(secrets);
  return r.push(text) + r.end();
}
