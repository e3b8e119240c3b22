/**
 * UI transcript parser for vendor_h_gateway runs (contract 1.0.0 of @service/adapter-utils). The
 * adapter writes every gateway event to the transcript as one JSON line (protocol.ts); the remote
 * agent's own output arrives inside `log` events. Never throws.
 */
import { TERMINAL_ESCAPES, countOf, jsonLineParser, otherEvent, strOf, type JsonObject, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

function eventEntries(event: JsonObject, ts: string): TranscriptEntry[] {
  switch (event.type) {
    case 'accepted':
      return [{ kind: 'init', ts, model: null, sessionId: strOf(event.sessionKey) || null }];
    case 'log': {
      const kind = event.stream === 'stderr' ? 'stderr' : 'stdout';
      return strOf(event.chunk)
        .replace(TERMINAL_ESCAPES, '')
        .split('\n')
        .filter((l) => l.trim())
        .map((text) => ({ kind, ts, text }));
    }
    case 'usage':
      return [{ kind: 'system', ts, text: `usage ${strOf(event.model) || 'model'}: ${countOf(event.inputTokens)} in / ${countOf(event.outputTokens)} out / ${countOf(event.cachedInputTokens)} cached` }];
    case 'result': {
      const failed = event.status !== 'succeeded';
      const message = strOf(event.errorMessage);
      return [{ kind: 'result', ts, text: strOf(event.summary) || message, isError: failed, subtype: strOf(event.errorCode) || strOf(event.status) || null, inputTokens: 0, outputTokens: 0, cachedTokens: 0, costUsd: null, errors: failed && message ? [message] : [] }];
    }
    case 'error':
      return [{ kind: 'stderr', ts, text: `${strOf(event.code) || 'error'}: ${strOf(event.message)}` }];
    default:
      return otherEvent(event, ts);
  }
}

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
