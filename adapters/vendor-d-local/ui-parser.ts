/**
 * UI transcript parser for `opencode run --format json` (contract 1.0.0 of @service/adapter-utils).
 * No side effects, deterministic, never throws. Each
 * `step_finish` becomes a result entry with that step's tokens and cost.
 */
import { countOf, failedResult, isJsonObject, jsonLineParser, otherEvent, strOf, type JsonObject, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

function eventEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  const part = isJsonObject(event.part) ? event.part : {};
  switch (event.type) {
    case 'step_start':
      return [{ kind: 'init', ts, model: null, sessionId: strOf(event.sessionID) || null }];
    case 'text':
      return strOf(part.text) ? [{ kind: 'assistant', ts, text: strOf(part.text) }] : [];
    case 'reasoning':
      return strOf(part.text) ? [{ kind: 'thinking', ts, text: strOf(part.text) }] : [];
    case 'tool_use': {
      const state = isJsonObject(part.state) ? part.state : {};
      const id = strOf(part.callID) || null;
      const out: TranscriptEntry[] = [{ kind: 'tool_call', ts, name: strOf(part.tool) || 'tool', input: state.input ?? null, id }];
      if (state.status === 'completed' || state.status === 'error') {
        out.push({ kind: 'tool_result', ts, toolUseId: id, content: strOf(state.output) || strOf(state.error), isError: state.status === 'error' });
      }
      return out;
    }
    case 'step_finish': {
      const tokens = isJsonObject(part.tokens) ? part.tokens : {};
      const cache = isJsonObject(tokens.cache) ? tokens.cache : {};
      const cost = typeof part.cost === 'number' && Number.isFinite(part.cost) && part.cost > 0 ? part.cost : null;
      return [
        {
          kind: 'result',
          ts,
          text: '',
          isError: false,
          subtype: strOf(part.reason) || null,
          inputTokens: countOf(tokens.input) + countOf(cache.write),
          outputTokens: countOf(tokens.output) + countOf(tokens.reasoning),
          cachedTokens: countOf(cache.read),
          costUsd: cost,
          errors: [],
        },
      ];
    }
    case 'error': {
      const error = isJsonObject(event.error) ? event.error : {};
      const data = isJsonObject(error.data) ? error.data : {};
      const message = `${strOf(error.name) || 'Error'}: ${strOf(data.message) || strOf(error.message)}`;
      return [failedResult(ts, message)];
    }
    default:
      return otherEvent(event, ts);
  }
}

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
