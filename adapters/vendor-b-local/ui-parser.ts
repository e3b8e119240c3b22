/**
 * UI transcript parser for `codex exec --json` (contract 1.0.0 of @service/adapter-utils).
 * No side effects, deterministic, never throws.
 */
import { countOf, failedResult, isJsonObject, jsonLineParser, otherEvent, strOf, type JsonObject, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

function itemEntries(phase: 'started' | 'updated' | 'completed', item: JsonObject, ts: string): TranscriptEntry[] {
  const id = strOf(item.id) || null;
  switch (item.type) {
    case 'agent_message':
      return phase === 'completed' && strOf(item.text) ? [{ kind: 'assistant', ts, text: strOf(item.text) }] : [];
    case 'reasoning':
      return phase === 'completed' && strOf(item.text) ? [{ kind: 'thinking', ts, text: strOf(item.text) }] : [];
    case 'command_execution':
      if (phase === 'started') return [{ kind: 'tool_call', ts, name: 'shell', input: { command: strOf(item.command) }, id }];
      if (phase === 'completed') return [{ kind: 'tool_result', ts, toolUseId: id, content: strOf(item.aggregated_output), isError: item.status === 'failed' || (typeof item.exit_code === 'number' && item.exit_code !== 0) }];
      return [];
    case 'file_change':
      return phase === 'completed' ? [{ kind: 'tool_call', ts, name: 'apply_patch', input: { changes: Array.isArray(item.changes) ? item.changes : [] }, id }] : [];
    case 'mcp_tool_call':
      if (phase === 'started') return [{ kind: 'tool_call', ts, name: `${strOf(item.server)}.${strOf(item.tool)}`, input: item.arguments ?? null, id }];
      if (phase === 'completed') return [{ kind: 'tool_result', ts, toolUseId: id, content: isJsonObject(item.error) ? strOf(item.error.message) : JSON.stringify(item.result ?? null), isError: item.status === 'failed' }];
      return [];
    case 'web_search':
      return phase === 'started' ? [{ kind: 'tool_call', ts, name: 'web_search', input: { query: strOf(item.query) }, id }] : [];
    case 'todo_list':
      return phase === 'started' && Array.isArray(item.items)
        ? [{ kind: 'system', ts, text: `plan: ${item.items.map((i) => (isJsonObject(i) ? `${i.completed === true ? '[x]' : '[ ]'} ${strOf(i.text)}` : '')).join('; ')}` }]
        : [];
    case 'error':
      return [{ kind: 'system', ts, text: `warning: ${strOf(item.message)}` }];
    default:
      return [];
  }
}

function eventEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'thread.started':
      return [{ kind: 'init', ts, model: null, sessionId: strOf(event.thread_id) || null }];
    case 'turn.started':
      return [];
    case 'item.started':
    case 'item.updated':
    case 'item.completed':
      return isJsonObject(event.item) ? itemEntries(String(event.type).slice(5) as 'started', event.item, ts) : [];
    case 'turn.completed': {
      const usage = isJsonObject(event.usage) ? event.usage : {};
      const cached = countOf(usage.cached_input_tokens);
      return [{ kind: 'result', ts, text: '', isError: false, subtype: 'success', inputTokens: Math.max(0, countOf(usage.input_tokens) - cached), outputTokens: countOf(usage.output_tokens), cachedTokens: cached, costUsd: null, errors: [] }];
    }
    case 'turn.failed': {
      const message = isJsonObject(event.error) ? strOf(event.error.message) : '';
      return [failedResult(ts, message)];
    }
    case 'error':
      return [{ kind: 'stderr', ts, text: strOf(event.message) }];
    default:
      return otherEvent(event, ts);
  }
}

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
