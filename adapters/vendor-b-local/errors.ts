import { classifyTexts, parseResetAt, type CliError } from '@service/adapter-utils';
import type { CodexStreamState } from './parse.js';

export const LOGIN_HINT =
  'Log Codex in: run `codex login` in a terminal (ChatGPT account), or put an OpenAI API key in the agent env as OPENAI_API_KEY (a secret reference).';

const UNKNOWN_SESSION = /no rollout found for thread id|thread\/resume failed|no (?:session|thread) found/i;
const LOGIN = /401 Unauthorized|invalid_api_key|incorrect api key|not logged in|please (?:run `?codex login|log in)|missing environment variable: `?OPENAI_API_KEY|token (?:has )?expired|refresh token/i;
const RATE = /usage limit|rate limit|429 Too Many Requests|too many requests|quota exceeded/i;
/** Codex prints a ChatGPT usage limit's reset as local clock time: "try again at 5:00 PM". */
const AT_TIME = /try again at (\d{1,2}(?::\d{2})?\s*[AaPp][Mm])/;

export function resetAt(texts: string[], now: Date): string | null {
  for (const text of texts) {
    const at = AT_TIME.exec(text);
    const parsed = parseResetAt(at ? `resets ${at[1]!.replace(/\s+/g, '').toLowerCase()}` : text, now);
    if (parsed) return parsed;
  }
  return null;
}

/** The error class of a finished Codex run, or null. Unknown thread first, then login, then limits. */
export function classifyCodexError(state: CodexStreamState, now: Date = new Date()): CliError | null {
  const patterns = { unknownSession: UNKNOWN_SESSION, unknownMessage: (t: string) => t.replace(/^Error:\s*/, ''), login: LOGIN, loginHint: LOGIN_HINT, rate: RATE, resetAt };
  return classifyTexts(state.errorTexts(), patterns, state.threadId, now);
}
