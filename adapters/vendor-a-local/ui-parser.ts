/**
 * UI transcript parser for Claude Code's stream-json (contract 1.0.0 of @service/adapter-utils).
 * Self-contained: type-only imports, no side effects, deterministic, never throws. The renderer
 * runs it in a sandboxed Worker; `headcount run watch` formats its entries.
 */
import type { TranscriptEntry, UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
// Terminal escapes and carriage returns a PTY adds around a line.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\r/g;

function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c) => (isObj(c) ? str(c.text) || (c.type === 'image' ? '[image]' : '') : '')).join('');
  return '';
}

function contentEntries(role: 'assistant' | 'user', content: unknown, ts: string): TranscriptEntry[] {
  if (typeof content === 'string') return content.trim() ? [{ kind: role, ts, text: content }] : [];
  if (!Array.isArray(content)) return [];
  const out: TranscriptEntry[] = [];
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && str(block.text)) out.push({ kind: role, ts, text: str(block.text) });
    else if (block.type === 'thinking' && str(block.thinking)) out.push({ kind: 'thinking', ts, text: str(block.thinking) });
    else if (block.type === 'tool_use') out.push({ kind: 'tool_call', ts, name: str(block.name) || 'tool', input: block.input ?? null, id: str(block.id) || null });
    else if (block.type === 'tool_result')
      out.push({ kind: 'tool_result', ts, toolUseId: str(block.tool_use_id) || null, content: toolResultText(block.content), isError: block.is_error === true });
  }
  return out;
}

function eventEntries(event: Obj, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'system':
      if (event.subtype === 'init') return [{ kind: 'init', ts, model: str(event.model) || null, sessionId: str(event.session_id) || null }];
      return [{ kind: 'system', ts, text: str(event.subtype) || 'system' }];
    case 'assistant':
      return contentEntries('assistant', isObj(event.message) ? event.message.content : null, ts);
    case 'user':
      return contentEntries('user', isObj(event.message) ? event.message.content : null, ts);
    case 'result': {
      const usage = isObj(event.usage) ? event.usage : {};
      const errors = Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === 'string') : [];
      return [
        {
          kind: 'result',
          ts,
          text: str(event.result),
          isError: event.is_error === true,
          subtype: str(event.subtype) || null,
          inputTokens: count(usage.input_tokens) + count(usage.cache_creation_input_tokens),
          outputTokens: count(usage.output_tokens),
          cachedTokens: count(usage.cache_read_input_tokens),
          costUsd: typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null,
          errors,
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
