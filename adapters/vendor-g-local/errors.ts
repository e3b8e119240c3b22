import { MaxTurnsError, classifyTexts, type CliError } from '@service/adapter-utils';
import type { QwenStreamState } from './parse.js';

export const LOGIN_HINT =
  'Give Qwen Code credentials: run `qwen` once and use /auth (Qwen OAuth), or put OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL for another OpenAI-compatible provider) in the agent env as secrets.';

const UNKNOWN_SESSION = /no saved session found with id/i;
const MAX_TURNS = /reached max(?:imum)? session turns/i;
const LOGIN = /\[API Error: (?:401|403)\b|incorrect api key|invalid[_ ]api[_ ]key|invalid x-api-key|no auth type is selected|please set an auth method|api key (?:is )?(?:missing|not (?:set|found))|OPENAI_API_KEY (?:environment variable )?not (?:found|set)|qwen oauth (?:token )?(?:expired|failed)/i;
const RATE = /\[API Error: 429\b|rate limit|too many requests|quota (?:exceeded|exhausted)|insufficient_quota|throttl/i;

export function classifyQwenError(state: QwenStreamState, now: Date = new Date()): CliError | null {
  const texts = state.errorTexts();
  if (state.result?.subtype === 'error_max_turns' && !texts.some((t) => MAX_TURNS.test(t))) return new MaxTurnsError('Reached the maximum number of session turns');
  return classifyTexts(texts, { maxTurns: MAX_TURNS, unknownSession: UNKNOWN_SESSION, login: LOGIN, loginHint: LOGIN_HINT, rate: RATE }, state.sessionId, now);
}
