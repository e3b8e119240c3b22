import { classifyTexts, type CliError } from '@service/adapter-utils';
import type { PiStreamState } from './parse.js';

export const LOGIN_HINT =
  "Give pi a credential: put the provider's API key in the agent env (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY... as a secret reference), or run `pi` in a terminal and use /login.";

const LOGIN = /no api key found|^40[13]\b|invalid[_ ]api[_ ]key|incorrect api key|authentication[_ ]error|unauthori[sz]ed|invalid x-api-key|oauth token (?:has )?expired/i;
const UNKNOWN_SESSION = /no session found matching/i;
const RATE = /^429\b|rate[_ ]limit|too many requests|quota exceeded|resource_exhausted|usage limit/i;

/** The error class of a finished pi run (max turns is the adapter's own and decided in execute). */
export function classifyPiError(state: PiStreamState, now: Date = new Date()): CliError | null {
  return classifyTexts(state.errorTexts(), { unknownSession: UNKNOWN_SESSION, login: LOGIN, loginHint: LOGIN_HINT, rate: RATE }, state.sessionId, now);
}
