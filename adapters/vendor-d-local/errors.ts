import { CliError, LoginRequiredError, RateLimitedError, UnknownSessionError, parseResetAt } from '@service/adapter-utils';
import type { OpenCodeStreamState } from './parse.js';

export const LOGIN_HINT =
  'Log OpenCode in to the model provider: run `opencode auth login`, or put the provider key (e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY) in the agent env as a secret reference.';

const UNKNOWN_SESSION = /session not found/i;
const LOGIN = /ProviderAuthError|incorrect api key|invalid[_ ]api[_ ]key|api key (?:is )?(?:missing|invalid|not (?:set|found))|unauthorized|not authenticated|authentication (?:failed|required)/i;
const RATE = /rate limit|too many requests|quota|usage limit|overloaded/i;

/** The error class of a finished OpenCode run, or null. */
export function classifyOpenCodeError(state: OpenCodeStreamState, now: Date = new Date()): CliError | null {
  const texts = state.errorTexts();
  const first = (re: RegExp) => texts.find((t) => re.test(t));
  const unknown = first(UNKNOWN_SESSION);
  if (unknown) return new UnknownSessionError(unknown.replace(/^Error:\s*/, ''), state.sessionId);
  const auth = state.errors.find((e) => e.statusCode === 401 || e.statusCode === 403);
  const login = auth ? `${auth.name}: ${auth.message}` : first(LOGIN);
  if (login) return new LoginRequiredError(login, LOGIN_HINT);
  const limited = state.errors.find((e) => e.statusCode === 429);
  const rate = limited ? `${limited.name}: ${limited.message}` : first(RATE);
  if (rate) return new RateLimitedError(rate, texts.map((t) => parseResetAt(t, now)).find((x) => x !== null) ?? null);
  return null;
}
