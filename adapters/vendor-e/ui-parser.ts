/**
 * UI transcript parser for the Cursor agent CLI's stream-json (contract 1.0.0 of
 * @service/adapter-utils). No side effects, deterministic,
 * never throws. Thinking deltas are skipped (a word per line); tool calls are named after their
 * key in `tool_call` (`shellToolCall` → `shell`).
 */
import { claudeSystemEntries, countOf, isJsonObject, jsonLineParser, otherEvent, strOf, type JsonObject, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

const textOf = (message: unknown): string =>
  isJsonObject(message) && Array.isArray(message.content)
    ? message.content
        .filter(isJsonObject)
        .map((b) => (b.type === 'text' ? strOf(b.text) : ''))
        .join('')
    : '';

/** The one `xxxToolCall` entry of a `tool_call` object. */
function toolOf(event: JsonObject): { name: string; body: JsonObject } {
  const call = isJsonObject(event.tool_call) ? event.tool_call : {};
  const key = Object.keys(call).find((k) => isJsonObject(call[k])) ?? '';
  return { name: key.replace(/ToolCall$/, '') || 'tool', body: key ? (call[key] as JsonObject) : {} };
}

function toolResult(body: JsonObject): { content: string; isError: boolean } {
  const result = isJsonObject(body.result) ? body.result : {};
  if (isJsonObject(result.success)) {
    const s = result.success;
    if (typeof s.stdout === 'string' || typeof s.stderr === 'string') return { content: [strOf(s.stdout), strOf(s.stderr)].filter(Boolean).join('\n'), isError: countOf(s.exitCode) !== 0 };
    let json = '';
    try {
      json = JSON.stringify(s) ?? '';
    } catch {
      json = '';
    }
    return { content: json.length > 2000 ? `${json.slice(0, 2000)}…` : json, isError: false };
  }
  const failure = isJsonObject(result.error) ? result.error : isJsonObject(result.rejected) ? result.rejected : isJsonObject(result.failure) ? result.failure : null;
  if (failure) return { content: strOf(failure.errorMessage) || strOf(failure.reason) || strOf(failure.message) || 'failed', isError: true };
  return { content: '', isError: false };
}

function eventEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'system':
      return claudeSystemEntries(event, ts);
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
      const id = strOf(event.call_id) || null;
      if (event.subtype === 'started') return [{ kind: 'tool_call', ts, name, input: body.args ?? null, id }];
      if (event.subtype === 'completed') return [{ kind: 'tool_result', ts, toolUseId: id, ...toolResult(body) }];
      return [{ kind: 'system', ts, text: `tool ${name} ${strOf(event.subtype)}` }];
    }
    case 'result': {
      const usage = isJsonObject(event.usage) ? event.usage : {};
      const isError = event.is_error === true;
      return [
        {
          kind: 'result',
          ts,
          text: strOf(event.result),
          isError,
          subtype: strOf(event.subtype) || null,
          inputTokens: countOf(usage.inputTokens) + countOf(usage.cacheWriteTokens),
          outputTokens: countOf(usage.outputTokens),
          cachedTokens: countOf(usage.cacheReadTokens),
          costUsd: null,
          errors: isError && strOf(event.result) ? [strOf(event.result)] : [],
        },
      ];
    }
    default:
      return otherEvent(event, ts);
  }
}

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
