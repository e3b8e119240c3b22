/**
 * UI transcript parser for Claude Code's stream-json (contract 1.0.0 of @service/adapter-utils):
 * the shared Claude-compatible mapping, with Claude's own token counting. No side effects,
 * deterministic, never throws. The build bundles it into one self-contained file the renderer runs
 * in a sandboxed Worker; `headcount run watch` formats its entries.
 */
import { claudeEventEntries, claudeResultEntry, countOf, jsonLineParser, type JsonObject, type ResultEntry, type TranscriptEntry, type UiTranscriptParser } from '@service/adapter-utils';

export const uiParserContractVersion = '1.0.0';

// Claude reports the uncached input and the cache writes apart.
const resultEntry = (event: JsonObject, ts: string): ResultEntry => claudeResultEntry(event, ts, (usage) => countOf(usage.input_tokens) + countOf(usage.cache_creation_input_tokens));

const eventEntries = (event: JsonObject, ts: string): TranscriptEntry[] => claudeEventEntries(event, ts, resultEntry);

export const parseStdoutLine = jsonLineParser(eventEntries);

export const uiParser: UiTranscriptParser = { parseStdoutLine };
export default uiParser;
