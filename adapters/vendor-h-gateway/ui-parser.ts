/**
 * UI transcript parser for vendor_h_gateway runs (contract 1.0.0 of @service/adapter-utils). The
 * adapter writes every gateway event to the transcript as one JSON line (protocol.ts); the remote
 * agent's own output arrives inside `log` events. Self-contained: type-only imports, never throws.
 */
import type { TranscriptEntry, UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;

function eventEntries(event: Obj, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'accepted':
      return [{ kind: 'init', ts, model: null, sessionId: str(event.sessionKey) || null }];
    case 'log': {
      const kind = event.stream === 'stderr' ? 'stderr' : 'stdout';
      return str(event.chunk)
        .replace(ESCAPES, '')
        .split('\n')
        .filter((l) => l.trim())
        .map((text) => ({ kind, ts, text }));
    }
    case 'usage':
      return [{ kind: 'system', ts, text: `usage ${str(event.model) || 'model'}: ${count(event.inputTokens)} in / ${count(event.outputTokens)} out / ${count(event.cachedInputTokens)} cached` }];
    case 'result': {
      const failed = event.status !== 'succeeded';
      const message = str(event.errorMessage);
      return [{ kind: 'result', ts, text: str(event.summary) || message, isError: failed, subtype: str(event.errorCode) || str(event.status) || null, inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: null, errors: failed && message ? [message] : [] }];
    }
    case 'error':
      return [{ kind: 'stderr', ts, text: `${str(event.code) || 'error'}: ${str(event.message)}` }];
    default:
      return [{ kind: 'system', ts, text: str(event.type) || 'event' }];
  }
}

export function parseStdoutLine(line: string, ts: string): TranscriptEntry[] {
  try {
    const text = String(line).replace(ESCAPES, '');
    const trimmed = text.trim();
    if (!trimmed) return [];
    if (trimmed.startsWith('{')) {
      let event: unknown = null;
      try {
        event = JSON.parse(trimmed);
      } catch {
        event = null;
      }
      if (isObj(event)) return eventEntries(event, ts);
    }
    return [{ kind: 'stdout', ts, text: text.trimEnd() }];
  } catch {
    return [{ kind: 'stdout', ts, text: typeof line === 'string' ? line : '' }];
  }
}

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
