/**
 * UI transcript parser for the Cursor agent CLI's stream-json (contract 1.0.0 of
 * @service/adapter-utils). Self-contained: type-only imports, no side effects, deterministic,
 * never throws. Thinking deltas are skipped (a word per line); tool calls are named after their
 * key in `tool_call` (`shellToolCall` → `shell`).
 */
import type { TranscriptEntry, UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;

const textOf = (message: unknown): string =>
  isObj(message) && Array.isArray(message.content)
    ? message.content
        .filter(isObj)
        .map((b) => (b.type === 'text' ? str(b.text) : ''))
        .join('')
    : '';

/** The one `xxxToolCall` entry of a `tool_call` object. */
function toolOf(event: Obj): { name: string; body: Obj } {
  const call = isObj(event.tool_call) ? event.tool_call : {};
  const key = Object.keys(call).find((k) => isObj(call[k])) ?? '';
  return { name: key.replace(/ToolCall$/, '') || 'tool', body: key ? (call[key] as Obj) : {} };
}

function toolResult(body: Obj): { content: string; isError: boolean } {
  const result = isObj(body.result) ? body.result : {};
  if (isObj(result.success)) {
    const s = result.success;
    if (typeof s.stdout === 'string' || typeof s.stderr === 'string') return { content: [str(s.stdout), str(s.stderr)].filter(Boolean).join('\n'), isError: count(s.exitCode) !== 0 };
    let json = '';
    try {
      json = JSON.stringify(s) ?? '';
    } catch {
      json = '';
    }
    return { content: json.length > 2000 ? `${json.slice(0, 2000)}…` : json, isError: false };
  }
  const failure = isObj(result.error) ? result.error : isObj(result.rejected) ? result.rejected : isObj(result.failure) ? result.failure : null;
  if (failure) return { content: str(failure.errorMessage) || str(failure.reason) || str(failure.message) || 'failed', isError: true };
  return { content: '', isError: false };
}

function eventEntries(event: Obj, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'system':
      if (event.subtype === 'init') return [{ kind: 'init', ts, model: str(event.model) || null, sessionId: str(event.session_id) || null }];
      return [{ kind: 'system', ts, text: str(event.subtype) || 'system' }];
    case 'user': {
      const text = textOf(event.message);
      return text.trim() ? [{ kind: 'user', ts, text }] : [];
    }
    case 'assistant': {
      const text = textOf(event.message);
      return text.trim() ? [{ kind: 'assistant', ts, text }] : [];
    }
    case 'thinking':
      return [];
    case 'tool_call': {
      const { name, body } = toolOf(event);
      const id = str(event.call_id) || null;
      if (event.subtype === 'started') return [{ kind: 'tool_call', ts, name, input: body.args ?? null, id }];
      if (event.subtype === 'completed') return [{ kind: 'tool_result', ts, toolUseId: id, ...toolResult(body) }];
      return [{ kind: 'system', ts, text: `tool ${name} ${str(event.subtype)}` }];
    }
    case 'result': {
      const usage = isObj(event.usage) ? event.usage : {};
      const isError = event.is_error === true;
      return [
        {
          kind: 'result',
          ts,
          text: str(event.result),
          isError,
          subtype: str(event.subtype) || null,
          inputTokens: count(usage.inputTokens) + count(usage.cacheWriteTokens),
          outputTokens: count(usage.outputTokens),
          cachedTokens: count(usage.cacheReadTokens),
          costUsd: null,
          errors: isError && str(event.result) ? [str(event.result)] : [],
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
