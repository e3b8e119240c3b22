/**
 * Server-side reading of Qwen Code's stream-json (its Claude-Code-compatible event stream:
 * system/init, assistant, user, result). Qwen's `input_tokens` are the whole prompt — the
 * OpenAI `prompt_tokens` — with `cache_read_input_tokens` the cached part of it.
 */

export interface QwenResultEvent {
  subtype: string | null;
  isError: boolean;
  text: string;
  errors: string[];
  numTurns: number | null;
  usage: { input: number; output: number; cacheRead: number } | null;
  costUsd: number | null;
  sessionId: string | null;
}

export class QwenStreamState {
  sessionId: string | null = null;
  model: string | null = null;
  lastAssistantText = '';
  readonly plainLines: string[] = [];
  result: QwenResultEvent | null = null;
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
      if (typeof message.model === 'string') this.model ??= message.model;
      for (const block of Array.isArray(message.content) ? (message.content as Record<string, unknown>[]) : []) {
        if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim()) this.lastAssistantText = block.text;
        if (block?.type === 'tool_use') this.toolCalls++;
      }
    }
    if (event.type === 'result') this.result = readResult(event);
  }

  /** Qwen reports API failures as text (`[API Error: …]`) inside a "success" result. */
  apiError(): string | null {
    const texts = [this.result?.text ?? '', this.lastAssistantText];
    return texts.find((t) => /^\s*\[API Error:/.test(t)) ?? null;
  }

  errorTexts(): string[] {
    const r = this.result;
    return [...(r ? [r.text, ...r.errors] : []), this.lastAssistantText, ...this.plainLines].filter(Boolean);
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

function readResult(event: Record<string, unknown>): QwenResultEvent {
  const usage = event.usage && typeof event.usage === 'object' ? (event.usage as Record<string, unknown>) : null;
  const error = event.error && typeof event.error === 'object' ? (event.error as Record<string, unknown>) : null;
  return {
    subtype: typeof event.subtype === 'string' ? event.subtype : null,
    isError: event.is_error === true,
    text: typeof event.result === 'string' ? event.result : '',
    errors: [
      ...(Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === 'string') : []),
      ...(error && typeof error.message === 'string' ? [error.message] : []),
    ],
    numTurns: typeof event.num_turns === 'number' ? event.num_turns : null,
    usage: usage ? { input: num(usage.input_tokens), output: num(usage.output_tokens), cacheRead: num(usage.cache_read_input_tokens) } : null,
    costUsd: typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null,
    sessionId: typeof event.session_id === 'string' ? event.session_id : null,
  };
}
