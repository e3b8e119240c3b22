/**
 * Server-side reading of `codex exec --json` (one JSON event per line: thread.started,
 * turn.started, item.started/updated/completed, turn.completed with usage, turn.failed, error).
 * Anything else (stderr under a PTY, warnings, a Rust error report) is kept as plain text.
 */
import { JsonLineState } from '@service/adapter-utils';

export interface CodexUsage {
  input: number;
  cached: number;
  output: number;
}

export class CodexStreamState extends JsonLineState {
  threadId: string | null = null;
  lastAssistantText = '';
  usage: CodexUsage | null = null;
  turnCompleted = false;
  turnFailed: string | null = null;
  /** `error` events (retries, fatal API errors), in order. */
  readonly errors: string[] = [];
  toolCalls = 0;

  protected read(event: Record<string, unknown>): void {
    const item = event.item && typeof event.item === 'object' ? (event.item as Record<string, unknown>) : null;
    switch (event.type) {
      case 'thread.started':
        if (typeof event.thread_id === 'string') this.threadId = event.thread_id;
        break;
      case 'item.completed':
        if (item?.type === 'agent_message' && typeof item.text === 'string' && item.text.trim()) this.lastAssistantText = item.text;
        if (item?.type === 'command_execution' || item?.type === 'mcp_tool_call' || item?.type === 'file_change') this.toolCalls++;
        break;
      case 'turn.completed': {
        this.turnCompleted = true;
        const u = event.usage && typeof event.usage === 'object' ? (event.usage as Record<string, unknown>) : {};
        this.usage = { input: num(u.input_tokens), cached: num(u.cached_input_tokens), output: num(u.output_tokens) };
        break;
      }
      case 'turn.failed': {
        const err = event.error && typeof event.error === 'object' ? (event.error as Record<string, unknown>) : {};
        this.turnFailed = typeof err.message === 'string' ? err.message : 'Codex turn failed';
        break;
      }
      case 'error':
        if (typeof event.message === 'string') this.errors.push(event.message);
        break;
    }
  }

  /** Every text that may name an error: the failed turn, fatal errors, plain lines. */
  errorTexts(): string[] {
    return [...(this.turnFailed ? [this.turnFailed] : []), ...this.errors.filter((e) => !e.startsWith('Reconnecting...')), ...this.plainLines].filter(Boolean);
  }
}

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
