/**
 * Server-side reading of pi's `--mode json` event stream: the session header, every assistant
 * message (usage and cost per model call), turns, and the end of the agent loop. Anything that is
 * not a JSON object (stderr under a PTY) is kept as plain text for error classification.
 */
import { JsonLineState } from '@service/adapter-utils';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

export interface PiUsageTotals {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  costUsd: number;
}

export class PiStreamState extends JsonLineState {
  sessionId: string | null = null;
  model: string | null = null;
  provider: string | null = null;
  turns = 0;
  toolCalls = 0;
  /** The agent loop ended (`agent_end`): pi finished on its own. */
  ended = false;
  lastAssistantText = '';
  /** `stopReason` of the last assistant message: stop, toolUse, length, error, aborted. */
  lastStopReason: string | null = null;
  readonly errorMessages: string[] = [];
  readonly usage: PiUsageTotals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };

  protected read(event: Obj): void {
    switch (event.type) {
      case 'session':
        if (typeof event.id === 'string') this.sessionId = event.id;
        break;
      case 'turn_start':
        this.turns++;
        break;
      case 'message_end':
        if (isObj(event.message) && event.message.role === 'assistant') this.readAssistant(event.message);
        break;
      case 'tool_execution_end':
        this.toolCalls++;
        break;
      case 'agent_end':
        this.ended = true;
        break;
    }
  }

  private readAssistant(message: Obj): void {
    if (typeof message.model === 'string') this.model = message.model;
    if (typeof message.provider === 'string') this.provider = message.provider;
    this.lastStopReason = typeof message.stopReason === 'string' ? message.stopReason : null;
    if (typeof message.errorMessage === 'string' && message.errorMessage) this.errorMessages.push(message.errorMessage);
    const usage = isObj(message.usage) ? message.usage : {};
    this.usage.input += num(usage.input);
    this.usage.output += num(usage.output);
    this.usage.cacheRead += num(usage.cacheRead);
    this.usage.cacheWrite += num(usage.cacheWrite);
    this.usage.costUsd += isObj(usage.cost) ? num(usage.cost.total) : 0;
    const text = (Array.isArray(message.content) ? message.content : [])
      .filter((b): b is Obj => isObj(b) && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('')
      .trim();
    if (text) this.lastAssistantText = text;
  }

  get failed(): boolean {
    return this.lastStopReason === 'error' || this.lastStopReason === 'aborted';
  }

  errorTexts(): string[] {
    return [...this.errorMessages, ...this.plainLines].filter(Boolean);
  }
}
