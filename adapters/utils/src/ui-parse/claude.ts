/**
 * Claude Code's stream-json as transcript entries: `system`, `assistant`/`user` content blocks and
 * the `result` line. Forks that speak the same stream (Qwen Code) pass their own result reading;
 * Cursor, which only shares the `system` line, uses `claudeSystemEntries`. Browser-safe (kit.ts).
 */
import type { TranscriptEntry } from '../transcript.js';
import { countOf, isJsonObject, otherEvent, strOf, type JsonObject, type ResultEntry } from './kit.js';

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (isJsonObject(c) ? strOf(c.text) || (c.type === 'image' ? '[image]' : '') : '')).join('');
  return '';
}

function contentEntries(role: 'assistant' | 'user', content: unknown, ts: string): TranscriptEntry[] {
  if (typeof content === 'string') return content.trim() ? [{ kind: role, ts, text: content }] : [];
  if (!Array.isArray(content)) return [];
  const out: TranscriptEntry[] = [];
  for (const block of content) {
    if (!isJsonObject(block)) continue;
    if (block.type === 'text' && strOf(block.text)) out.push({ kind: role, ts, text: strOf(block.text) });
    else if (block.type === 'thinking' && strOf(block.thinking)) out.push({ kind: 'thinking', ts, text: strOf(block.thinking) });
    else if (block.type === 'tool_use') out.push({ kind: 'tool_call', ts, name: strOf(block.name) || 'tool', input: block.input ?? null, id: strOf(block.id) || null });
    else if (block.type === 'tool_result')
      out.push({ kind: 'tool_result', ts, toolUseId: strOf(block.tool_use_id) || null, content: toolResultText(block.content), isError: block.is_error === true });
  }
  return out;
}

/** The `system` line: `init` names the model and session, any other subtype is shown by name. */
export function claudeSystemEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  if (event.subtype === 'init') return [{ kind: 'init', ts, model: strOf(event.model) || null, sessionId: strOf(event.session_id) || null }];
  return [{ kind: 'system', ts, text: strOf(event.subtype) || 'system' }];
}

/**
 * The `result` line. `inputTokens` says how the CLI counts input: Claude Code reports the uncached
 * part and cache writes apart, Qwen Code includes the cached part in `input_tokens`.
 */
export function claudeResultEntry(event: JsonObject, ts: string, inputTokens: (usage: JsonObject) => number): ResultEntry {
  const usage = isJsonObject(event.usage) ? event.usage : {};
  const errors = Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === 'string') : [];
  return {
    kind: 'result',
    ts,
    text: strOf(event.result),
    isError: event.is_error === true,
    subtype: strOf(event.subtype) || null,
    inputTokens: inputTokens(usage),
    outputTokens: countOf(usage.output_tokens),
    cachedTokens: countOf(usage.cache_read_input_tokens),
    costUsd: typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null,
    errors,
  };
}

/** One stream-json event as entries; `result` reads the fork's result line. */
export function claudeEventEntries(event: JsonObject, ts: string, result: (event: JsonObject, ts: string) => ResultEntry): TranscriptEntry[] {
  switch (event.type) {
    case 'system':
      return claudeSystemEntries(event, ts);
    case 'assistant':
      return contentEntries('assistant', isJsonObject(event.message) ? event.message.content : null, ts);
    case 'user':
      return contentEntries('user', isJsonObject(event.message) ? event.message.content : null, ts);
    case 'result':
      return [result(event, ts)];
    default:
      return otherEvent(event, ts);
  }
}
