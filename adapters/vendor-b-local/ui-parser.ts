/**
 * UI transcript parser for `codex exec --json` (contract 1.0.0 of @service/adapter-utils).
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

function itemEntries(phase: 'started' | 'updated' | 'completed', item: Obj, ts: string): TranscriptEntry[] {
  const id = str(item.id) || null;
  switch (item.type) {
    case 'agent_message':
      return phase === 'completed' && str(item.text) ? [{ kind: 'assistant', ts, text: str(item.text) }] : [];
    case 'reasoning':
      return phase === 'completed' && str(item.text) ? [{ kind: 'thinking', ts, text: str(item.text) }] : [];
    case 'command_execution':
      if (phase === 'started') return [{ kind: 'tool_call', ts, name: 'shell', input: { command: str(item.command) }, id }];
      if (phase === 'completed') return [{ kind: 'tool_result', ts, toolUseId: id, content: str(item.aggregated_output), isError: item.status === 'failed' || (typeof item.exit_code === 'number' && item.exit_code !== 0) }];
      return [];
    case 'file_change':
      return phase === 'completed' ? [{ kind: 'tool_call', ts, name: 'apply_patch', input: { changes: Array.isArray(item.changes) ? item.changes : [] }, id }] : [];
    case 'mcp_tool_call':
      if (phase === 'started') return [{ kind: 'tool_call', ts, name: `${str(item.server)}.${str(item.tool)}`, input: item.arguments ?? null, id }];
      if (phase === 'completed') return [{ kind: 'tool_result', ts, toolUseId: id, content: isObj(item.error) ? str(item.error.message) : JSON.stringify(item.result ?? null), isError: item.status === 'failed' }];
      return [];
    case 'web_search':
      return phase === 'started' ? [{ kind: 'tool_call', ts, name: 'web_search', input: { query: str(item.query) }, id }] : [];
    case 'todo_list':
      return phase === 'started' && Array.isArray(item.items)
        ? [{ kind: 'system', ts, text: `plan: ${item.items.map((i) => (isObj(i) ? `${i.completed === true ? '[x]' : '[ ]'} ${str(i.text)}` : '')).join('; ')}` }]
        : [];
    case 'error':
      return [{ kind: 'system', ts, text: `warning: ${str(item.message)}` }];
    default:
      return [];
  }
}

function eventEntries(event: Obj, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'thread.started':
      return [{ kind: 'init', ts, model: null, sessionId: str(event.thread_id) || null }];
    case 'turn.started':
      return [];
    case 'item.started':
    case 'item.updated':
    case 'item.completed':
      return isObj(event.item) ? itemEntries(String(event.type).slice(5) as 'started', event.item, ts) : [];
    case 'turn.completed': {
      const usage = isObj(event.usage) ? event.usage : {};
      const cached = count(usage.cached_input_tokens);
      return [{ kind: 'result', ts, text: '', isError: false, subtype: 'success', inputTokens: Math.max(0, count(usage.input_tokens) - cached), outputTokens: count(usage.output_tokens), cachedTokens: cached, costUsd: null, errors: [] }];
    }
    case 'turn.failed': {
      const message = isObj(event.error) ? str(event.error.message) : '';
      return [{ kind: 'result', ts, text: message, isError: true, subtype: 'error', inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: null, errors: message ? [message] : [] }];
    }
    case 'error':
      return [{ kind: 'stderr', ts, text: str(event.message) }];
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
