/**
 * UI transcript parser for pi's `--mode json` event stream (contract 1.0.0 of
 * @service/adapter-utils). Self-contained: type-only imports, no side effects, deterministic,
 * never throws. Streaming deltas (`message_update`, tool progress) are skipped: the matching
 * `message_end` carries the whole message.
 */
import type { TranscriptEntry, UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;
const SILENT = new Set(['agent_start', 'turn_start', 'turn_end', 'message_start', 'message_update', 'tool_execution_start', 'tool_execution_update', 'tool_execution_end', 'queue_update']);

const blocks = (content: unknown): Obj[] => (Array.isArray(content) ? content.filter(isObj) : []);
const textOf = (content: unknown): string =>
  typeof content === 'string' ? content : blocks(content).map((b) => (b.type === 'text' ? str(b.text) : b.type === 'image' ? '[image]' : '')).join('');

function messageEntries(message: Obj, ts: string): TranscriptEntry[] {
  if (message.role === 'user') {
    const text = textOf(message.content);
    return text.trim() ? [{ kind: 'user', ts, text }] : [];
  }
  if (message.role === 'toolResult') {
    return [{ kind: 'tool_result', ts, toolUseId: str(message.toolCallId) || null, content: textOf(message.content), isError: message.isError === true }];
  }
  if (message.role !== 'assistant') return [{ kind: 'system', ts, text: str(message.role) || 'message' }];
  const out: TranscriptEntry[] = [];
  for (const block of blocks(message.content)) {
    if (block.type === 'thinking' && str(block.thinking)) out.push({ kind: 'thinking', ts, text: str(block.thinking) });
    else if (block.type === 'text' && str(block.text)) out.push({ kind: 'assistant', ts, text: str(block.text) });
    else if (block.type === 'toolCall') out.push({ kind: 'tool_call', ts, name: str(block.name) || 'tool', input: block.arguments ?? null, id: str(block.id) || null });
  }
  if (message.stopReason === 'error' || message.stopReason === 'aborted') out.push({ kind: 'stderr', ts, text: str(message.errorMessage) || `pi: ${str(message.stopReason)}` });
  return out;
}

/** The whole run, from the message list `agent_end` carries. */
function resultEntry(event: Obj, ts: string): TranscriptEntry {
  const assistants = (Array.isArray(event.messages) ? event.messages : []).filter((m): m is Obj => isObj(m) && m.role === 'assistant');
  let input = 0;
  let output = 0;
  let cached = 0;
  let cost = 0;
  for (const m of assistants) {
    const usage = isObj(m.usage) ? m.usage : {};
    input += count(usage.input) + count(usage.cacheWrite);
    output += count(usage.output);
    cached += count(usage.cacheRead);
    cost += isObj(usage.cost) ? count(usage.cost.total) : 0;
  }
  const last = assistants.at(-1);
  const stop = last ? str(last.stopReason) : '';
  const isError = stop === 'error' || stop === 'aborted';
  const text = [...assistants].reverse().map((m) => textOf(m.content).trim()).find(Boolean) ?? '';
  return { kind: 'result', ts, text, isError, subtype: stop || null, inputTokens: input, outputTokens: output, cachedTokens: cached, costUsd: cost > 0 ? cost : null, errors: isError && last && str(last.errorMessage) ? [str(last.errorMessage)] : [] };
}

function eventEntries(event: Obj, ts: string): TranscriptEntry[] {
  const type = str(event.type);
  if (SILENT.has(type)) return [];
  switch (type) {
    case 'session':
      return [{ kind: 'init', ts, model: null, sessionId: str(event.id) || null }];
    case 'message_end':
      return isObj(event.message) ? messageEntries(event.message, ts) : [];
    case 'agent_end':
      return [resultEntry(event, ts)];
    case 'auto_retry_start':
      return [{ kind: 'system', ts, text: `retry ${count(event.attempt)}/${count(event.maxAttempts)}: ${str(event.errorMessage)}` }];
    case 'compaction_start':
      return [{ kind: 'system', ts, text: `compaction (${str(event.reason) || 'auto'})` }];
    default:
      return [{ kind: 'system', ts, text: type || 'event' }];
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
