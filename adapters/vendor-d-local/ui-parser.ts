/**
 * UI transcript parser for `opencode run --format json` (contract 1.0.0 of @service/adapter-utils).
 * Self-contained: type-only imports, no side effects, deterministic, never throws. Each
 * `step_finish` becomes a result entry with that step's tokens and cost.
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
  const part = isObj(event.part) ? event.part : {};
  switch (event.type) {
    case 'step_start':
      return [{ kind: 'init', ts, model: null, sessionId: str(event.sessionID) || null }];
    case 'text':
      return str(part.text) ? [{ kind: 'assistant', ts, text: str(part.text) }] : [];
    case 'reasoning':
      return str(part.text) ? [{ kind: 'thinking', ts, text: str(part.text) }] : [];
    case 'tool_use': {
      const state = isObj(part.state) ? part.state : {};
      const id = str(part.callID) || null;
      const out: TranscriptEntry[] = [{ kind: 'tool_call', ts, name: str(part.tool) || 'tool', input: state.input ?? null, id }];
      if (state.status === 'completed' || state.status === 'error') {
        out.push({ kind: 'tool_result', ts, toolUseId: id, content: str(state.output) || str(state.error), isError: state.status === 'error' });
      }
      return out;
    }
    case 'step_finish': {
      const tokens = isObj(part.tokens) ? part.tokens : {};
      const cache = isObj(tokens.cache) ? tokens.cache : {};
      const cost = typeof part.cost === 'number' && Number.isFinite(part.cost) && part.cost > 0 ? part.cost : null;
      return [
        {
          kind: 'result',
          ts,
          text: '',
          isError: false,
          subtype: str(part.reason) || null,
          inputTokens: count(tokens.input) + count(cache.write),
          outputTokens: count(tokens.output) + count(tokens.reasoning),
          cachedTokens: count(cache.read),
          costUsd: cost,
          errors: [],
        },
      ];
    }
    case 'error': {
      const error = isObj(event.error) ? event.error : {};
      const data = isObj(error.data) ? error.data : {};
      const message = `${str(error.name) || 'Error'}: ${str(data.message) || str(error.message)}`;
      return [{ kind: 'result', ts, text: message, isError: true, subtype: 'error', inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: null, errors: [message] }];
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
