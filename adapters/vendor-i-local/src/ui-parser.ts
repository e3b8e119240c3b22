/**
 * UI transcript parser of vendor_i_local (Amp `--stream-json`), contract 1.0.0. Self-contained:
 * only type imports, no side effects, deterministic, never throws. The renderer runs it in a
 * sandboxed Worker.
 */
import type { TranscriptEntry } from '@service/adapter-utils';

type Json = Record<string, unknown>;

// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007]*(\u0007|\u001b\\)|\r/g;

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: unknown) => (c && typeof c === 'object' && typeof (c as Json).text === 'string' ? ((c as Json).text as string) : ''))
    .filter(Boolean)
    .join('\n');
}

function blocks(message: unknown): Json[] {
  const content = message && typeof message === 'object' ? (message as Json).content : undefined;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content.filter((c): c is Json => !!c && typeof c === 'object') : [];
}

function assistantEntries(event: Json, ts: string): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const b of blocks(event.message)) {
    if (b.type === 'text' && typeof b.text === 'string' && b.text.trim()) out.push({ kind: 'assistant', ts, text: b.text });
    else if (b.type === 'thinking' && typeof b.thinking === 'string') out.push({ kind: 'thinking', ts, text: b.thinking });
    else if (b.type === 'tool_use') out.push({ kind: 'tool_call', ts, name: str(b.name) ?? 'tool', input: b.input ?? null, id: str(b.id) });
  }
  return out;
}

function userEntries(event: Json, ts: string): TranscriptEntry[] {
  const out: TranscriptEntry[] = [];
  for (const b of blocks(event.message)) {
    if (b.type === 'text' && typeof b.text === 'string') out.push({ kind: 'user', ts, text: b.text });
    else if (b.type === 'tool_result') out.push({ kind: 'tool_result', ts, toolUseId: str(b.tool_use_id), content: textOf(b.content), isError: b.is_error === true });
  }
  return out;
}

function resultEntry(event: Json, ts: string): TranscriptEntry {
  const usage = (event.usage && typeof event.usage === 'object' ? event.usage : {}) as Json;
  const cost = event.total_cost_usd ?? event.cost_usd;
  const subtype = str(event.subtype);
  const isError = event.is_error === true || (subtype !== null && subtype !== 'success');
  const error = str(event.error);
  return {
    kind: 'result',
    ts,
    text: str(event.result) ?? error ?? '',
    isError,
    subtype,
    inputTokens: num(usage.input_tokens),
    outputTokens: num(usage.output_tokens),
    cachedTokens: num(usage.cache_read_input_tokens),
    costUsd: typeof cost === 'number' && Number.isFinite(cost) ? cost : null,
    errors: error ? [error] : [],
  };
}

function parseEvent(event: Json, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'system':
      if (event.subtype === 'init') return [{ kind: 'init', ts, model: str(event.model), sessionId: str(event.session_id) }];
      return [{ kind: 'system', ts, text: str(event.message) ?? `system ${str(event.subtype) ?? ''}`.trim() }];
    case 'assistant':
      return assistantEntries(event, ts);
    case 'user':
      return userEntries(event, ts);
    case 'result':
      return [resultEntry(event, ts)];
    default:
      return [{ kind: 'system', ts, text: `${str(event.type) ?? 'event'}` }];
  }
}

export function parseStdoutLine(line: string, ts: string): TranscriptEntry[] {
  try {
    const clean = String(line).replace(ESCAPES, '').trim();
    if (!clean) return [];
    if (clean.startsWith('{')) {
      let event: unknown;
      try {
        event = JSON.parse(clean);
      } catch {
        event = null;
      }
      if (event && typeof event === 'object' && !Array.isArray(event)) return parseEvent(event as Json, ts);
    }
    return [{ kind: 'stdout', ts, text: clean }];
  } catch {
    return [{ kind: 'stdout', ts, text: typeof line === 'string' ? line : '' }];
  }
}
