/**
 * Server-side reading of `opencode run --format json`: one event per line (`step_start`, `text`,
 * `reasoning`, `tool_use`, `step_finish` with tokens and cost, `error`), each with the session id.
 * There is no final result line: the run's usage is the sum of its steps, its answer the last text.
 */
import { JsonLineState } from '@service/adapter-utils';

export interface OpenCodeError {
  name: string;
  message: string;
  statusCode: number | null;
}

export class OpenCodeStreamState extends JsonLineState {
  sessionId: string | null = null;
  lastText = '';
  usage = { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 };
  costUsd = 0;
  steps = 0;
  /** The reason of the last finished step (`stop` when the model ended its turn). */
  lastFinishReason: string | null = null;
  readonly errors: OpenCodeError[] = [];
  toolCalls = 0;

  protected read(event: Record<string, unknown>): void {
    if (typeof event.sessionID === 'string') this.sessionId = event.sessionID;
    const part = event.part && typeof event.part === 'object' ? (event.part as Record<string, unknown>) : {};
    switch (event.type) {
      case 'text':
        if (typeof part.text === 'string' && part.text.trim()) this.lastText = part.text;
        break;
      case 'tool_use':
        this.toolCalls++;
        break;
      case 'step_finish': {
        this.steps++;
        this.lastFinishReason = typeof part.reason === 'string' ? part.reason : null;
        const tokens = part.tokens && typeof part.tokens === 'object' ? (part.tokens as Record<string, unknown>) : {};
        const cache = tokens.cache && typeof tokens.cache === 'object' ? (tokens.cache as Record<string, unknown>) : {};
        this.usage.input += num(tokens.input);
        this.usage.output += num(tokens.output);
        this.usage.reasoning += num(tokens.reasoning);
        this.usage.cacheRead += num(cache.read);
        this.usage.cacheWrite += num(cache.write);
        this.costUsd += num(part.cost);
        break;
      }
      case 'error': {
        const error = event.error && typeof event.error === 'object' ? (event.error as Record<string, unknown>) : {};
        const data = error.data && typeof error.data === 'object' ? (error.data as Record<string, unknown>) : {};
        this.errors.push({
          name: typeof error.name === 'string' ? error.name : 'Error',
          message: typeof data.message === 'string' ? data.message : typeof error.message === 'string' ? error.message : JSON.stringify(error),
          statusCode: typeof data.statusCode === 'number' ? data.statusCode : null,
        });
        break;
      }
    }
  }

  errorTexts(): string[] {
    return [...this.errors.map((e) => `${e.name}: ${e.message}`), ...this.plainLines].filter(Boolean);
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
