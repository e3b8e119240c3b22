/**
 * Server-side reading of the Cursor agent's stream-json (cursor.com/docs/cli/reference/output-format):
 * `system/init` (session_id = chat id, model), `user`, `thinking`, `assistant`, `tool_call`
 * started/completed, and the final `result` (duration, usage in camelCase). Anything else is kept
 * as plain text (stderr under a PTY) for error classification.
 */
import { JsonLineState } from '@service/adapter-utils';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

export interface CursorResult {
  subtype: string | null;
  isError: boolean;
  text: string;
  durationMs: number | null;
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number } | null;
  sessionId: string | null;
}

export class CursorStreamState extends JsonLineState {
  sessionId: string | null = null;
  model: string | null = null;
  lastAssistantText = '';
  toolCalls = 0;
  readonly modelCalls = new Set<string>();
  result: CursorResult | null = null;

  protected read(event: Obj): void {
    if (typeof event.session_id === 'string' && event.session_id) this.sessionId = event.session_id;
    if (typeof event.model_call_id === 'string') this.modelCalls.add(event.model_call_id);
    if (event.type === 'system' && event.subtype === 'init' && typeof event.model === 'string') this.model = event.model;
    if (event.type === 'assistant' && isObj(event.message)) {
      const text = (Array.isArray(event.message.content) ? event.message.content : [])
        .filter((b): b is Obj => isObj(b) && b.type === 'text' && typeof b.text === 'string')
        .map((b) => b.text as string)
        .join('')
        .trim();
      if (text) this.lastAssistantText = text;
    }
    if (event.type === 'tool_call' && event.subtype === 'started') this.toolCalls++;
    if (event.type === 'result') this.result = readResult(event);
  }

  errorTexts(): string[] {
    const r = this.result;
    return [...(r?.isError ? [r.text] : []), ...this.plainLines].filter(Boolean);
  }
}

function readResult(event: Obj): CursorResult {
  const usage = isObj(event.usage) ? event.usage : null;
  return {
    subtype: typeof event.subtype === 'string' ? event.subtype : null,
    isError: event.is_error === true,
    text: typeof event.result === 'string' ? event.result : '',
    durationMs: typeof event.duration_ms === 'number' ? event.duration_ms : null,
    usage: usage ? { input: num(usage.inputTokens), output: num(usage.outputTokens), cacheRead: num(usage.cacheReadTokens), cacheWrite: num(usage.cacheWriteTokens) } : null,
    sessionId: typeof event.session_id === 'string' ? event.session_id : null,
  };
}
