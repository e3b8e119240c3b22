/**
 * Server-side reading of Claude Code's stream-json: what the run learned (session, model, usage,
 * cost, final answer) and the error texts to classify. One JSON object per line; anything else
 * (stderr under a PTY, terminal noise) is kept as plain text for error classification.
 */

export interface ClaudeResultEvent {
  subtype: string | null;
  isError: boolean;
  apiErrorStatus: number | null;
  text: string;
  errors: string[];
  costUsd: number | null;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  sessionId: string | null;
}

export class ClaudeStreamState {
  sessionId: string | null = null;
  model: string | null = null;
  lastAssistantText = '';
  /** `error` values of synthetic assistant messages (`authentication_failed`, `rate_limit`...). */
  readonly assistantErrors: string[] = [];
  readonly plainLines: string[] = [];
  result: ClaudeResultEvent | null = null;
  toolCalls = 0;

  push(line: string): Record<string, unknown> | null {
    const trimmed = line.trim();
    if (!trimmed) return null;
    let event: Record<string, unknown>;
    try {
      const parsed: unknown = trimmed.startsWith('{') ? JSON.parse(trimmed) : null;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an event');
      event = parsed as Record<string, unknown>;
    } catch {
      if (this.plainLines.length < 200) this.plainLines.push(trimmed);
      return null;
    }
    this.read(event);
    return event;
  }

  private read(event: Record<string, unknown>): void {
    if (typeof event.session_id === 'string') this.sessionId = event.session_id;
    if (event.type === 'system' && event.subtype === 'init' && typeof event.model === 'string') this.model = event.model;
    if (event.type === 'assistant') {
      const message = (event.message ?? {}) as Record<string, unknown>;
      if (typeof message.model === 'string' && message.model !== '<synthetic>') this.model ??= message.model;
      if (typeof event.error === 'string') this.assistantErrors.push(event.error);
      for (const block of Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []) {
        if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim()) this.lastAssistantText = block.text;
        if (block?.type === 'tool_use') this.toolCalls++;
      }
    }
    if (event.type === 'result') this.result = readResult(event);
  }

  /** Every text that may name an error: result, errors, synthetic messages, plain lines. */
  errorTexts(): string[] {
    const r = this.result;
    return [...(r ? [r.text, ...r.errors] : []), ...this.plainLines].filter(Boolean);
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

function readResult(event: Record<string, unknown>): ClaudeResultEvent {
  const usage = event.usage && typeof event.usage === 'object' ? (event.usage as Record<string, unknown>) : null;
  return {
    subtype: typeof event.subtype === 'string' ? event.subtype : null,
    isError: event.is_error === true,
    apiErrorStatus: typeof event.api_error_status === 'number' ? event.api_error_status : null,
    text: typeof event.result === 'string' ? event.result : '',
    errors: Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === 'string') : [],
    costUsd: typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null,
    usage: usage
      ? { input: num(usage.input_tokens), output: num(usage.output_tokens), cacheRead: num(usage.cache_read_input_tokens), cacheWrite: num(usage.cache_creation_input_tokens) }
      : null,
    sessionId: typeof event.session_id === 'string' ? event.session_id : null,
  };
}
