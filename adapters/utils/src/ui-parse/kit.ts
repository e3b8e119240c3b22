/**
 * What the built-in UI parsers share: reading a JSON line, the field readers that never throw, and
 * the Claude-Code-compatible stream-json mapping its forks (Qwen Code, Cursor) reuse. Browser-safe
 * on purpose: no `node:` import and no side effect, because the build bundles it into each served
 * `dist/adapters/<folder>/ui-parser.js` (bin/build-ui-parsers.mjs), which a Worker runs as is.
 */
import type { TranscriptEntry } from '../transcript.js';

export type JsonObject = Record<string, unknown>;
export type ResultEntry = Extract<TranscriptEntry, { kind: 'result' }>;
export type EventEntries = (event: JsonObject, ts: string) => TranscriptEntry[];

export const isJsonObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** The string, or '' for anything else. */
export const strOf = (v: unknown): string => (typeof v === 'string' ? v : '');
/** A token count: a finite number not below zero, else 0. */
export const countOf = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
/** Terminal escapes and carriage returns a PTY adds around a line. */
// eslint-disable-next-line no-control-regex
export const TERMINAL_ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;

/** An event the mapping has no words for: shown as its type. */
export const otherEvent = (event: JsonObject, ts: string): TranscriptEntry[] => [{ kind: 'system', ts, text: strOf(event.type) || 'event' }];

/** A failed run's result with no usage (the stream's error events). */
export const failedResult = (ts: string, message: string, subtype = 'error'): ResultEntry => ({
  kind: 'result',
  ts,
  text: message,
  isError: true,
  subtype,
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  costUsd: null,
  errors: message ? [message] : [],
});

/**
 * The `parseStdoutLine` of a JSON-lines stream: escapes stripped, blank lines dropped, a JSON object
 * handed to the vendor's mapping, anything else shown as plain stdout. Never throws.
 */
export function jsonLineParser(eventEntries: EventEntries): (line: string, ts: string) => TranscriptEntry[] {
  return (line, ts) => {
    try {
      const text = String(line).replace(TERMINAL_ESCAPES, '');
      const trimmed = text.trim();
      if (!trimmed) return [];
      if (trimmed.startsWith('{')) {
        let event: unknown = null;
        try {
          event = JSON.parse(trimmed);
        } catch {
          event = null;
        }
        if (isJsonObject(event)) return eventEntries(event, ts);
      }
      return [{ kind: 'stdout', ts, text: text.trimEnd() }];
    } catch {
      return [{ kind: 'stdout', ts, text: typeof line === 'string' ? line : '' }];
    }
  };
}
