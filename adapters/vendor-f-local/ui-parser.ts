/**
 * UI transcript parser for pi's `--mode json` event stream (contract 1.0.0 of
 * @service/adapter-utils). No side effects, deterministic,
 * never throws. Streaming deltas (`message_update`, tool progress) are skipped: the matching
 * `message_end` carries the whole message.
 */
import { countOf, isJsonObject, jsonLineParser, strOf, type JsonObject, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

const SILENT = new Set(['agent_start', 'turn_start', 'turn_end', 'message_start', 'message_update', 'tool_execution_start', 'tool_execution_update', 'tool_execution_end', 'queue_update']);

const blocks = (content: unknown): JsonObject[] => (Array.isArray(content) ? content.filter(isJsonObject) : []);
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : blocks(content).map((b) => (b.type === 'text' ? strOf(b.text) : b.type === 'image' ? '[image]' : '')).join('');

function messageEntries(message: JsonObject, ts: string): TranscriptEntry[] {
  if (message.role === 'user') {
    const text = textOf(message.content);
    return text.trim() ? [{ kind: 'user', ts, text }] : [];
  }
  if (message.role === 'toolResult') {
    return [{ kind: 'tool_result', ts, toolUseId: strOf(message.toolCallId) || null, content: textOf(message.content), isError: message.isError === true }];
  }
  if (message.role !== 'assistant') return [{ kind: 'system', ts, text: strOf(message.role) || 'message' }];
  const out: TranscriptEntry[] = [];
  for (const block of blocks(message.content)) {
    if (block.type === 'thinking' && strOf(block.thinking)) out.push({ kind: 'thinking', ts, text: strOf(block.thinking) });
    else if (block.type === 'text' && strOf(block.text)) out.push({ kind: 'assistant', ts, text: strOf(block.text) });
    else if (block.type === 'toolCall') out.push({ kind: 'tool_call', ts, name: strOf(block.name) || 'tool', input: block.arguments ?? null, id: strOf(block.id) || null });
  }
  if (message.stopReason === 'error' || message.stopReason === 'aborted') out.push({ kind: 'stderr', ts, text: strOf(message.errorMessage) || `pi: ${strOf(message.stopReason)}` });
  return out;
}

/** The whole run, from the message list `agent_end` carries. */
function resultEntry(event: JsonObject, ts: string): TranscriptEntry {
  const assistants = (Array.isArray(event.messages) ? event.messages : []).filter((m): m is JsonObject => isJsonObject(m) && m.role === 'assistant');
  let input = 0;
  let output = 0;
  let cached = 0;
  let cost = 0;
  for (const m of assistants) {
    const usage = isJsonObject(m.usage) ? m.usage : {};
    input += countOf(usage.input) + countOf(usage.cacheWrite);
    output += countOf(usage.output);
    cached += countOf(usage.cacheRead);
    cost += isJsonObject(usage.cost) ? countOf(usage.cost.total) : 0;
  }
  const last = assistants.at(-1);
  const stop = last ? strOf(last.stopReason) : '';
  const isError = stop === 'error' || stop === 'aborted';
  const text = [...assistants].reverse().map((m) => textOf(m.content).trim()).find(Boolean) ?? '';
  return { kind: 'result', ts, text, isError, subtype: stop || null, inputTokens: input, outputTokens: output, cachedTokens: cached, costUsd: cost > 0 ? cost : null, errors: isError && last && strOf(last.errorMessage) ? [strOf(last.errorMessage)] : [] };
}

function eventEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  const type = strOf(event.type);
  if (SILENT.has(type)) return [];
  switch (type) {
    case 'session':
      return [{ kind: 'init', ts, model: null, sessionId: strOf(event.id) || null }];
    case 'message_end':
      return isJsonObject(event.message) ? messageEntries(event.message, ts) : [];
    case 'agent_end':
      return [resultEntry(event, ts)];
    case 'auto_retry_start':
      return [{ kind: 'system', ts, text: `retry ${countOf(event.attempt)}/${countOf(event.maxAttempts)}: ${strOf(event.errorMessage)}` }];
    case 'compaction_start':
      return [{ kind: 'system', ts, text: `compaction (${strOf(event.reason) || 'auto'})` }];
    default:
      return [{ kind: 'system', ts, text: type || 'event' }];
  }
}

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
