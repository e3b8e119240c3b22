/**
 * Amp's `--stream-json` output (one JSON object per line, Claude Code–compatible): `system/init`
 * names the thread (`session_id`, `T-<uuid>`), each `assistant` message carries the usage of its
 * model call, and the last line is a `result` with `subtype`, `is_error`, `result` or `error`.
 * Amp reports `input_tokens` as the whole prompt, cache reads and writes included.
 */

export interface AmpUsage {
  /** Prompt tokens that were neither cache reads nor cache writes. */
  inputTokens: number;
  cacheCreationInputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
}

export interface AmpResultLine {
  subtype: string | null;
  isError: boolean;
  text: string;
  numTurns: number | null;
  costUsd: number | null;
}

/** What one run printed, folded line by line. */
export interface AmpStreamState {
  sessionId: string | null;
  model: string | null;
  usage: AmpUsage;
  /** Whether any assistant message reported usage (a run that never reached the model has none). */
  sawUsage: boolean;
  lastAssistantText: string;
  result: AmpResultLine | null;
  /** Lines that were not JSON (Amp prints errors such as "not logged in" as plain text). */
  plainLines: string[];
}

export function newStreamState(): AmpStreamState {
  return {
    sessionId: null,
    model: null,
    usage: { inputTokens: 0, cacheCreationInputTokens: 0, cachedInputTokens: 0, outputTokens: 0 },
    sawUsage: false,
    lastAssistantText: '',
    result: null,
    plainLines: [],
  };
}

type Json = Record<string, unknown>;
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function parseJson(line: string): Json | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

function addUsage(state: AmpStreamState, usage: Json): void {
  const total = num(usage.input_tokens);
  const writes = num(usage.cache_creation_input_tokens);
  const reads = num(usage.cache_read_input_tokens);
  state.usage.cacheCreationInputTokens += writes;
  state.usage.cachedInputTokens += reads;
  // input_tokens includes both kinds of cache tokens; what is left is plain input.
  state.usage.inputTokens += Math.max(0, total - writes - reads);
  state.usage.outputTokens += num(usage.output_tokens);
  state.sawUsage = true;
}

/** Folds one cleaned output line into the state. Never throws. */
export function foldLine(state: AmpStreamState, line: string): void {
  const event = parseJson(line);
  if (!event) {
    if (line.trim()) state.plainLines.push(line.trim());
    return;
  }
  const sessionId = str(event.session_id);
  if (sessionId) state.sessionId = sessionId;
  if (event.type === 'assistant') {
    const message = (event.message ?? {}) as Json;
    const model = str(message.model);
    if (model) state.model = model;
    if (message.usage && typeof message.usage === 'object') addUsage(state, message.usage as Json);
    const content = Array.isArray(message.content) ? (message.content as Json[]) : [];
    const text = content
      .filter((c) => c?.type === 'text' && typeof c.text === 'string')
      .map((c) => c.text as string)
      .join('\n')
      .trim();
    if (text) state.lastAssistantText = text;
  } else if (event.type === 'result') {
    const cost = event.total_cost_usd ?? event.cost_usd;
    state.result = {
      subtype: str(event.subtype),
      isError: event.is_error === true || (typeof event.subtype === 'string' && event.subtype !== 'success'),
      text: str(event.result) ?? str(event.error) ?? '',
      numTurns: typeof event.num_turns === 'number' ? event.num_turns : null,
      costUsd: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null,
    };
  }
}
