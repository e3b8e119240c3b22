import { LoginRequiredError, MaxTurnsError, parseResetAt, RateLimitedError, UnknownSessionError, type CliError } from '@service/adapter-utils';
import type { AmpStreamState } from './parse.js';

export const LOGIN_HINT = 'Run `amp login` in a terminal as the user Headcount runs as, or set AMP_API_KEY (an Amp access token) in the agent\'s env.';

const LOGIN_RE = /not logged in|log ?in required|run `?amp login|unauthori[sz]ed|invalid (api key|access token)|\b401\b/i;
const UNKNOWN_THREAD_RE = /thread\b[^\n]*\b(not found|does not exist|unknown)|no such thread|unknown thread/i;
const RATE_RE = /rate.?limit|too many requests|\b429\b|usage limit|out of credits|insufficient (credits|balance)/i;

/**
 * The error class of a finished run, from its result line and any plain-text output, or null
 * when the run did not fail in a way the engine acts on (other failures keep the CLI's words).
 */
export function classifyError(state: AmpStreamState, now: Date): CliError | null {
  const text = [state.result?.isError ? state.result.text : '', ...state.plainLines].filter(Boolean).join('\n');
  if (state.result?.subtype === 'error_max_turns') return new MaxTurnsError(state.result.text || 'Amp stopped at its maximum number of turns', 'Split the task, or let the next heartbeat continue the thread.');
  if (!text) return null;
  const first = text.split('\n')[0]!.replace(/^Error:\s*/, '');
  if (LOGIN_RE.test(text)) return new LoginRequiredError(first, LOGIN_HINT);
  if (UNKNOWN_THREAD_RE.test(text)) return new UnknownSessionError(first);
  if (RATE_RE.test(text)) return new RateLimitedError(first, parseResetAt(text, now));
  return null;
}
