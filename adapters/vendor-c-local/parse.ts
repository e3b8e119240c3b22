/**
 * Server-side reading of the Gemini CLI's stream-json (`init`, `message`, `tool_use`,
 * `tool_result`, `error`, `result` with `stats`). Assistant text arrives as deltas, joined per
 * turn. `stats.input_tokens` is the whole prompt; `stats.cached` the cached part, `stats.input`
 * the rest. Anything not JSON (stderr under a PTY, stack traces) is kept as plain text.
 */
import { JsonLineState } from '@service/adapter-utils';

export interface GeminiResultEvent {
  status: string | null;
  errorType: string | null;
  errorMessage: string | null;
  usage: { input: number; cached: number; output: number } | null;
}

export class GeminiStreamState extends JsonLineState {
  sessionId: string | null = null;
  model: string | null = null;
  /** The assistant's text since the last tool call (its final answer once the run ends). */
  assistantText = '';
  private afterTool = false;
  readonly errors: string[] = [];
  result: GeminiResultEvent | null = null;
  toolCalls = 0;

  protected read(event: Record<string, unknown>): void {
    switch (event.type) {
      case 'init':
        if (typeof event.session_id === 'string') this.sessionId = event.session_id;
        if (typeof event.model === 'string') this.model = event.model;
        break;
      case 'message':
        if (event.role === 'assistant' && typeof event.content === 'string') {
          if (this.afterTool || event.delta !== true) this.assistantText = '';
          this.afterTool = false;
          this.assistantText += event.content;
        }
        break;
      case 'tool_use':
        this.toolCalls++;
        this.afterTool = true;
        break;
      case 'error':
        if (typeof event.message === 'string') this.errors.push(event.message);
        break;
      case 'result': {
        const stats = event.stats && typeof event.stats === 'object' ? (event.stats as Record<string, unknown>) : null;
        const error = event.error && typeof event.error === 'object' ? (event.error as Record<string, unknown>) : null;
        this.result = {
          status: typeof event.status === 'string' ? event.status : null,
          errorType: error && typeof error.type === 'string' ? error.type : null,
          errorMessage: error && typeof error.message === 'string' ? error.message : null,
          usage: stats ? { input: num(stats.input_tokens), cached: num(stats.cached), output: num(stats.output_tokens) } : null,
        };
        break;
      }
    }
  }

  errorTexts(): string[] {
    return [...(this.result?.errorMessage ? [this.result.errorMessage] : []), ...this.errors, ...this.plainLines].filter(Boolean);
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
