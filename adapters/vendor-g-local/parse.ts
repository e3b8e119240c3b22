/**
 * Server-side reading of Qwen Code's stream-json: its Claude-Code-compatible event stream
 * (system/init, assistant, user, result), read by the shared Claude state with what Qwen says
 * differently. Qwen's `input_tokens` are the whole prompt — the OpenAI `prompt_tokens` — with
 * `cache_read_input_tokens` the cached part of it.
 */
import { ClaudeStreamState, type ClaudeResultEvent, type JsonEvent } from '@service/adapter-utils';

export type QwenResultEvent = ClaudeResultEvent;

export class QwenStreamState extends ClaudeStreamState {
  protected override readResult(event: JsonEvent): ClaudeResultEvent {
    const result = super.readResult(event);
    const error = event.error && typeof event.error === 'object' ? (event.error as JsonEvent) : null;
    if (error && typeof error.message === 'string') result.errors.push(error.message);
    return result;
  }

  /** Qwen reports API failures as text (`[API Error: …]`) inside a "success" result. */
  apiError(): string | null {
    const texts = [this.result?.text ?? '', this.lastAssistantText];
    return texts.find((t) => /^\s*\[API Error:/.test(t)) ?? null;
  }

  override errorTexts(): string[] {
    const r = this.result;
    return [...(r ? [r.text, ...r.errors] : []), this.lastAssistantText, ...this.plainLines].filter(Boolean);
  }
}
