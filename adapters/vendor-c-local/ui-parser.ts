/**
 * UI transcript parser for the Gemini CLI's stream-json (contract 1.0.0 of @service/adapter-utils).
 * No side effects, deterministic, never throws.
 */
import { countOf, isJsonObject, jsonLineParser, otherEvent, strOf, type JsonObject, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

function eventEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'init':
      return [{ kind: 'init', ts, model: strOf(event.model) || null, sessionId: strOf(event.session_id) || null }];
    case 'message': {
      const text = strOf(event.content);
      if (!text) return [];
      return [{ kind: event.role === 'user' ? 'user' : 'assistant', ts, text }];
    }
    case 'tool_use':
      return [{ kind: 'tool_call', ts, name: strOf(event.tool_name) || 'tool', input: event.parameters ?? null, id: strOf(event.tool_id) || null }];
    case 'tool_result': {
      const error = isJsonObject(event.error) ? strOf(event.error.message) : '';
      return [{ kind: 'tool_result', ts, toolUseId: strOf(event.tool_id) || null, content: strOf(event.output) || error, isError: event.status === 'error' }];
    }
    case 'error':
      return [{ kind: 'stderr', ts, text: strOf(event.message) || 'error' }];
    case 'result': {
      const stats = isJsonObject(event.stats) ? event.stats : {};
      const error = isJsonObject(event.error) ? strOf(event.error.message) : '';
      const cached = countOf(stats.cached);
      return [
        {
          kind: 'result',
          ts,
          text: error,
          isError: event.status !== 'success',
          subtype: strOf(event.status) || null,
          inputTokens: Math.max(0, countOf(stats.input_tokens) - cached),
          outputTokens: countOf(stats.output_tokens),
          cachedTokens: cached,
          costUsd: null,
          errors: error ? [error] : [],
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
