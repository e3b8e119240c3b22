import { classifyTexts, type CliError } from '@service/adapter-utils';
import type { CursorStreamState } from './parse.js';

export const LOGIN_HINT =
  'Log the Cursor CLI in: run `cursor-agent login` (or `agent login`) in a terminal, or put a Cursor API key in the agent env as CURSOR_API_KEY (a secret reference).';

const LOGIN = /authentication required|not (?:logged in|authenticated)|(?:cursor-)?agent login|invalid api key|unauthori[sz]ed|401/i;
const UNKNOWN_SESSION = /(?:chat|session|conversation)\b[^\n]{0,60}\bnot found|no (?:chat|session|conversation) (?:found|with id)|invalid (?:chat|session) id/i;
const RATE = /usage limit|rate limit|too many requests|\b429\b|resource[_ ]exhausted|limit (?:reached|exceeded)/i;

/** The error class of a finished Cursor run (max turns is the adapter's own and decided in execute). */
export function classifyCursorError(state: CursorStreamState, now: Date = new Date()): CliError | null {
  return classifyTexts(state.errorTexts(), { unknownSession: UNKNOWN_SESSION, login: LOGIN, loginHint: LOGIN_HINT, rate: RATE }, state.sessionId, now);
}
