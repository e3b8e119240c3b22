/**
 * UI transcript parser for the Gemini CLI's stream-json (contract 1.0.0 of @service/adapter-utils).
 * Self-contained: type-only imports, no side effects, deterministic, never throws.
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
    case 'init':
      return [{ kind: 'init', ts, model: str(event.model) || null, sessionId: str(event.session_id) || null }];
    case 'message': {
      const text = str(event.content);
      if (!text) return [];
      return [{ kind: event.role === 'user' ? 'user' : 'assistant', ts, text }];
    }
    case 'tool_use':
      return [{ kind: 'tool_call', ts, name: str(event.tool_name) || 'tool', input: event.parameters ?? null, id: str(event.tool_id) || null }];
    case 'tool_result': {
      const error = isObj(event.error) ? str(event.error.message) : '';
      return [{ kind: 'tool_result', ts, toolUseId: str(event.tool_id) || null, content: str(event.output) || error, isError: event.status === 'error' }];
    }
    case 'error':
      return [{ kind: 'stderr', ts, text: str(event.message) || 'error' }];
    case 'result': {
      const stats = isObj(event.stats) ? event.stats : {};
      const error = isObj(event.error) ? str(event.error.message) : '';
      const cached = count(stats.cached);
      return [
        {
          kind: 'result',
          ts,
          text: error,
          isError: event.status !== 'success',
          subtype: str(event.status) || null,
          inputTokens: Math.max(0, count(stats.input_tokens) - cached),
          outputTokens: count(stats.output_tokens),
          cachedTokens: cached,
          costUsd: null,
          errors: error ? [error] : [],
        },
      ];
    }
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
