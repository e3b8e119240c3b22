/**
 * Server-side reading of Claude Code's stream-json, which its forks speak too (Qwen Code extends
 * this): what the run learned (session, model, usage, cost, final answer) and the texts that may
 * name an error.
 */
import { JsonLineState, nonNegative as num, type JsonEvent } from './json-stream.js';

export interface ClaudeResultEvent {
  subtype: string | null;
  isError: boolean;
  apiErrorStatus: number | null;
  text: string;
  errors: string[];
  costUsd: number | null;
  numTurns: number | null;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  sessionId: string | null;
}

export class ClaudeStreamState extends JsonLineState {
  sessionId: string | null = null;
  model: string | null = null;
  lastAssistantText = '';
  /** `error` values of synthetic assistant messages (`authentication_failed`, `rate_limit`...). */
  readonly assistantErrors: string[] = [];
  result: ClaudeResultEvent | null = null;
  toolCalls = 0;

  protected read(event: JsonEvent): void {
    if (typeof event.session_id === 'string') this.sessionId = event.session_id;
    if (event.type === 'system' && event.subtype === 'init' && typeof event.model === 'string') this.model = event.model;
    if (event.type === 'assistant') {
      const message = (event.message ?? {}) as JsonEvent;
      if (typeof message.model === 'string' && message.model !== '<synthetic>') this.model ??= message.model;
      if (typeof event.error === 'string') this.assistantErrors.push(event.error);
      for (const block of Array.isArray(message.content) ? (message.content as JsonEvent[]) : []) {
        if (block?.type === 'text' && typeof block.text === 'string' && block.text.trim()) this.lastAssistantText = block.text;
        if (block?.type === 'tool_use') this.toolCalls++;
      }
    }
    if (event.type === 'result') this.result = this.readResult(event);
  }

  protected readResult(event: JsonEvent): ClaudeResultEvent {
    const usage = event.usage && typeof event.usage === 'object' ? (event.usage as JsonEvent) : null;
    return {
      subtype: typeof event.subtype === 'string' ? event.subtype : null,
      isError: event.is_error === true,
      apiErrorStatus: typeof event.api_error_status === 'number' ? event.api_error_status : null,
      text: typeof event.result === 'string' ? event.result : '',
      errors: Array.isArray(event.errors) ? event.errors.filter((e): e is string => typeof e === 'string') : [],
      costUsd: typeof event.total_cost_usd === 'number' && Number.isFinite(event.total_cost_usd) ? event.total_cost_usd : null,
      numTurns: typeof event.num_turns === 'number' ? event.num_turns : null,
      usage: usage
        ? { input: num(usage.input_tokens), output: num(usage.output_tokens), cacheRead: num(usage.cache_read_input_tokens), cacheWrite: num(usage.cache_creation_input_tokens) }
        : null,
      sessionId: typeof event.session_id === 'string' ? event.session_id : null,
    };
  }

  /** Every text that may name an error: result, errors, plain lines. */
  errorTexts(): string[] {
    const r = this.result;
    return [...(r ? [r.text, ...r.errors] : []), ...this.plainLines].filter(Boolean);
  }

  /** The run's answer: the result text of a successful run, else the last assistant text. */
  summary(): string | null {
    const r = this.result;
    return r && !r.isError ? r.text || this.lastAssistantText || null : this.lastAssistantText || null;
  }

  /** An error result that is none of the classified errors. */
  failure(name: string): { errorCode: string; errorMessage: string } | null {
    const r = this.result;
    if (!r?.isError) return null;
    return { errorCode: r.subtype && r.subtype !== 'success' ? r.subtype : 'cli_error', errorMessage: r.text || r.errors.join('; ') || `${name} reported an error` };
  }
}
