import { classifyTexts, parseResetAt, type CliError } from '@service/adapter-utils';
import type { GeminiStreamState } from './parse.js';

export const LOGIN_HINT =
  'Log the Gemini CLI in: run `gemini` in a terminal and choose "Login with Google", or put GEMINI_API_KEY in the agent env as a secret reference (Vertex AI: GOOGLE_API_KEY or GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION).';

const UNKNOWN_SESSION = /error resuming session|invalid session identifier|no previous sessions found/i;
const MAX_TURNS = /reached max session turns/i;
const LOGIN = /\b401\b|UNAUTHENTICATED|api key not valid|API_KEY_INVALID|PERMISSION_DENIED|must specify the GEMINI_API_KEY|please set an auth method|invalid auth method|login required|not logged in|reauthenticat/i;
const RATE = /\b429\b|RESOURCE_EXHAUSTED|quota|rate limit|too many requests/i;
/** Gemini's retry hint: `"retryDelay":"20s"` in the error details, "Suggested retry after 20s", "Please retry in 20.5s". */
const RETRY_DELAY = /retryDelay\W+(\d+(?:\.\d+)?)s|retry (?:in|after) (\d+(?:\.\d+)?)\s*s/i;

export function resetAt(texts: string[], now: Date): string | null {
  for (const text of texts) {
    const delay = RETRY_DELAY.exec(text);
    if (delay) return new Date(now.getTime() + Math.ceil(Number(delay[1] ?? delay[2]) * 1000)).toISOString();
    const parsed = parseResetAt(text, now);
    if (parsed) return parsed;
  }
  return null;
}

/** The error class of a finished Gemini CLI run, or null. */
export function classifyGeminiError(state: GeminiStreamState, now: Date = new Date()): CliError | null {
  return classifyTexts(state.errorTexts(), { maxTurns: MAX_TURNS, unknownSession: UNKNOWN_SESSION, login: LOGIN, loginHint: LOGIN_HINT, rate: RATE, resetAt }, state.sessionId, now);
}
