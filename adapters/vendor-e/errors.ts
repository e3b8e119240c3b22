import { CliError, LoginRequiredError, RateLimitedError, UnknownSessionError, parseResetAt } from '@service/adapter-utils';
import type { CursorStreamState } from './parse.js';

export const LOGIN_HINT =
  'Log the Cursor CLI in: run `cursor-agent login` (or `agent login`) in a terminal, or put a Cursor API key in the agent env as CURSOR_API_KEY (a secret reference).';

const LOGIN = /authentication required|not (?:logged in|authenticated)|(?:cursor-)?agent login|invalid api key|unauthori[sz]ed|401/i;
const UNKNOWN_SESSION = /(?:chat|session|conversation)\b[^\n]{0,60}\bnot found|no (?:chat|session|conversation) (?:found|with id)|invalid (?:chat|session) id/i;
const RATE = /usage limit|rate limit|too many requests|\b429\b|resource[_ ]exhausted|limit (?:reached|exceeded)/i;

/** The error class of a finished Cursor run (max turns is the adapter's own and decided in execute). */
export function classifyCursorError(state: CursorStreamState, now: Date = new Date()): CliError | null {
  const texts = state.errorTexts();
  const first = (re: RegExp) => texts.find((t) => re.test(t));
  const unknown = first(UNKNOWN_SESSION);
  if (unknown) return new UnknownSessionError(unknown, state.sessionId);
  const login = first(LOGIN);
  if (login) return new LoginRequiredError(login, LOGIN_HINT);
  const rate = first(RATE);
  if (rate) return new RateLimitedError(rate, texts.map((t) => parseResetAt(t, now)).find((x) => x !== null) ?? null);
  return null;
}
