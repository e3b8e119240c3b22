import type { ExecutionResult } from './types.js';

/**
 * The error classes every CLI adapter recognises in its CLI's output. The heartbeat engine acts
 * on the codes: `unknown_session` clears the stored session and retries once with a fresh one;
 * `rate_limited` holds the agent's runs until `resetAt`; `login_required` and `max_turns` fail the
 * run with that code (and the hint, for the founder).
 */
export type CliErrorCode = 'login_required' | 'unknown_session' | 'rate_limited' | 'max_turns';

export class CliError extends Error {
  constructor(
    readonly code: CliErrorCode,
    message: string,
    readonly hint: string | null = null,
  ) {
    super(message);
    this.name = 'CliError';
  }

  /** The fields of an ExecutionResult that carry this error. */
  toResult(): Pick<ExecutionResult, 'errorCode' | 'errorMessage' | 'errorHint' | 'rateLimitResetAt'> {
    return { errorCode: this.code, errorMessage: this.message, errorHint: this.hint, rateLimitResetAt: null };
  }
}

export class LoginRequiredError extends CliError {
  constructor(message: string, hint: string) {
    super('login_required', message, hint);
  }
}

export class UnknownSessionError extends CliError {
  constructor(
    message: string,
    readonly sessionId: string | null = null,
  ) {
    super('unknown_session', message, 'The stored session is gone; a fresh session starts.');
  }
}

export class RateLimitedError extends CliError {
  constructor(
    message: string,
    /** ISO time after which the provider accepts requests again; null when the CLI did not say. */
    readonly resetAt: string | null,
  ) {
    super('rate_limited', message, resetAt ? `Runs of this agent wait until ${resetAt}.` : 'Try again later.');
  }

  override toResult() {
    return { ...super.toResult(), rateLimitResetAt: this.resetAt };
  }
}

export class MaxTurnsError extends CliError {
  constructor(message: string, hint = 'Raise maxTurns in the adapter configuration, or split the task.') {
    super('max_turns', message, hint);
  }
}

const UNIT_MS: Record<string, number> = { s: 1000, sec: 1000, second: 1000, m: 60_000, min: 60_000, minute: 60_000, h: 3_600_000, hr: 3_600_000, hour: 3_600_000 };

/**
 * A reset time from a CLI's rate-limit message, as an ISO string, or null. Understands epoch
 * seconds or milliseconds (`…|1763830800`, `"resetsAt":1763830800`), ISO timestamps, relative
 * durations ("try again in 5 minutes", "in 30s") and clock times ("resets 3pm", "resets at 15:30",
 * UTC unless an offset is given; a time already past today means tomorrow).
 */
export function parseResetAt(text: string, now: Date = new Date()): string | null {
  const iso = /\b(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))/.exec(text);
  if (iso?.[1] && !Number.isNaN(Date.parse(iso[1]))) return new Date(iso[1]).toISOString();
  const epoch = /(?:\||reset[a-z_]*["']?\s*[:=]\s*["']?|at\s+)(\d{10}|\d{13})\b/i.exec(text);
  if (epoch?.[1]) {
    const n = Number(epoch[1]);
    return new Date(epoch[1].length === 13 ? n : n * 1000).toISOString();
  }
  const rel = /\b(?:in|after)\s+(\d+(?:\.\d+)?)\s*(s|sec|seconds?|m|min|minutes?|h|hr|hours?)\b/i.exec(text);
  if (rel?.[1] && rel[2]) {
    const unit = rel[2].toLowerCase();
    const ms = UNIT_MS[unit] ?? UNIT_MS[unit.replace(/s$/, '')] ?? 0;
    if (ms) return new Date(now.getTime() + Number(rel[1]) * ms).toISOString();
  }
  const clock = /\bresets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\b/i.exec(text);
  if (clock?.[1]) {
    let hour = Number(clock[1]);
    const minute = Number(clock[2] ?? 0);
    const meridiem = clock[3]?.toLowerCase();
    if (meridiem === 'pm' && hour < 12) hour += 12;
    if (meridiem === 'am' && hour === 12) hour = 0;
    if (hour > 23 || minute > 59) return null;
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour, minute));
    if (at.getTime() <= now.getTime()) at.setUTCDate(at.getUTCDate() + 1);
    return at.toISOString();
  }
  return null;
}

/** How a CLI names its errors in its output, for `classifyTexts`. */
export interface CliErrorPatterns {
  maxTurns?: RegExp;
  unknownSession: RegExp;
  login: RegExp;
  loginHint: string;
  rate: RegExp;
  /** The unknown-session message from the text that named it; default the text itself. */
  unknownMessage?: (text: string) => string;
  /** When a rate limit lifts; default the first reset time any text names. */
  resetAt?: (texts: string[], now: Date) => string | null;
}

/**
 * The error class of a finished run from the texts that may name one, in the order the engine
 * needs: max turns, unknown session (cleared and retried), login, rate limit.
 */
export function classifyTexts(texts: string[], p: CliErrorPatterns, sessionId: string | null, now: Date = new Date()): CliError | null {
  const first = (re: RegExp) => texts.find((t) => re.test(t));
  const maxTurns = p.maxTurns ? first(p.maxTurns) : undefined;
  if (maxTurns) return new MaxTurnsError(maxTurns);
  const unknown = first(p.unknownSession);
  if (unknown) return new UnknownSessionError(p.unknownMessage ? p.unknownMessage(unknown) : unknown, sessionId);
  const login = first(p.login);
  if (login) return new LoginRequiredError(login, p.loginHint);
  const rate = first(p.rate);
  if (rate) return new RateLimitedError(rate, p.resetAt ? p.resetAt(texts, now) : (texts.map((t) => parseResetAt(t, now)).find((x) => x !== null) ?? null));
  return null;
}
