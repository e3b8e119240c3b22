import { CliError, LoginRequiredError, MaxTurnsError, RateLimitedError, UnknownSessionError, parseResetAt } from '@service/adapter-utils';
import type { ClaudeStreamState } from './parse.js';

export const LOGIN_HINT =
  'Log Claude Code in: run `claude` in a terminal and use /login, or put an Anthropic API key in the agent env as ANTHROPIC_API_KEY (a secret reference).';

const LOGIN = /invalid api key|please run \/login|not logged in|oauth token (?:has )?(?:expired|been revoked)|authentication_error|fix external api key/i;
const UNKNOWN_SESSION = /no conversation found with session id/i;
const RATE = /usage limit reached|hit your (?:usage )?limit|rate limit|rate_limit_error|\(429\)|too many requests/i;

/**
 * The error class of a finished Claude Code run, from its result line and any plain text it
 * printed, or null when it did not fail in a way we know. Order matters: a max-turns result is
 * that even if text mentions a limit; an unknown session is found before the generic failure.
 */
export function classifyClaudeError(state: ClaudeStreamState, now: Date = new Date()): CliError | null {
  const r = state.result;
  const texts = state.errorTexts();
  const first = (re: RegExp) => texts.find((t) => re.test(t));
  if (r?.subtype === 'error_max_turns') return new MaxTurnsError(r.errors[0] ?? 'Reached the maximum number of turns');
  const unknown = first(UNKNOWN_SESSION);
  if (unknown) return new UnknownSessionError(unknown, state.sessionId);
  if (r?.apiErrorStatus === 401 || r?.apiErrorStatus === 403 || state.assistantErrors.includes('authentication_failed') || first(LOGIN)) {
    return new LoginRequiredError(first(LOGIN) ?? r?.text ?? 'Claude Code is not logged in', LOGIN_HINT);
  }
  const rate = first(RATE);
  if (r?.apiErrorStatus === 429 || state.assistantErrors.includes('rate_limit') || rate) {
    const message = rate ?? r?.text ?? 'Rate limited';
    return new RateLimitedError(message, texts.map((t) => parseResetAt(t, now)).find((x) => x !== null) ?? null);
  }
  return null;
}
