/**
 * UI transcript parser for Qwen Code's stream-json (contract 1.0.0 of @service/adapter-utils),
 * the Claude-Code-compatible event stream: the shared Claude mapping with Qwen's result reading.
 * No side effects, deterministic, never throws. Qwen's `input_tokens` include the cached part.
 */
import { claudeEventEntries, claudeResultEntry, countOf, isJsonObject, jsonLineParser, strOf, type JsonObject, type ResultEntry, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

function resultEntry(event: JsonObject, ts: string): ResultEntry {
  const entry = claudeResultEntry(event, ts, (usage) => Math.max(0, countOf(usage.input_tokens) - countOf(usage.cache_read_input_tokens)));
  if (isJsonObject(event.error) && strOf(event.error.message)) entry.errors.push(strOf(event.error.message));
  // Qwen reports API failures as "[API Error: …]" text in a success result.
  if (/^\s*\[API Error:/.test(strOf(event.result))) entry.isError = true;
  return entry;
}

const eventEntries = (event: JsonObject, ts: string): TranscriptEntry[] => claudeEventEntries(event, ts, resultEntry);

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
