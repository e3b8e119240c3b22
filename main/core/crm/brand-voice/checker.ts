import { ServiceError } from '../../kernel/errors.js';
import { CheckerAnswer } from './contract.js';

/** One brand-voice check request, as a checker provider receives it. */
export interface BrandVoiceCheckInput {
  companyId: string;
  contentSha256: string;
  draft: string;
}

/** What a checker returns: the validated verdict and the model that gave it. */
export interface BrandVoiceCheckerResult extends CheckerAnswer {
  model: string;
}

/**
 * A pluggable brand-voice checker. The default is an HTTP chat-completions endpoint; an embedder
 * (or a test) may pass its own. `check` throws a ServiceError on any failure: nothing is cached then.
 */
export interface BrandVoiceChecker {
  check(input: BrandVoiceCheckInput): Promise<BrandVoiceCheckerResult>;
}

export interface ChatCompletionsConfig {
  endpointUrl: string;
  model: string;
  /** The resolved key (never logged, redacted from error excerpts). */
  apiKey: string | null;
  guidelines: string;
  timeoutMs: number;
}

export const SYSTEM_PROMPT = [
  'You review marketing and outreach drafts against a company brand-voice guide.',
  'Answer with ONE JSON object and nothing else, of this shape:',
  '{"verdict": "pass" | "needs_revision" | "fail", "score": <integer 0-100>, "summary": "<one or two sentences>",',
  ' "findings": [{"severity": "info" | "minor" | "major", "message": "<what to change and why>", "excerpt": "<quoted words>"}]}',
  'pass = publishable as is; needs_revision = fixable with edits; fail = off-brand, rewrite.',
].join('\n');

export const upstream = (code: string, message: string, details?: unknown) => new ServiceError(502, code, message, details);

/** Model answers sometimes arrive wrapped in a ```json fence despite the instruction; the fence is not part of the answer. */
function unfence(text: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/.exec(text);
  return m ? m[1]! : text;
}

/** Calls an OpenAI-compatible chat-completions endpoint and validates its JSON verdict. */
export async function checkWithChatCompletions(config: ChatCompletionsConfig, draft: string): Promise<BrandVoiceCheckerResult> {
  const redact = (s: string) => (config.apiKey ? s.replaceAll(config.apiKey, '[redacted]') : s);
  let res: Response;
  try {
    res = await fetch(config.endpointUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: config.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: `${SYSTEM_PROMPT}\n\nBrand-voice guide:\n${config.guidelines}` },
          { role: 'user', content: `Draft to review:\n\n${draft}` },
        ],
      }),
      signal: AbortSignal.timeout(config.timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    const timedOut = e.name === 'TimeoutError';
    throw upstream(
      timedOut ? 'brand_voice_timeout' : 'brand_voice_upstream_unreachable',
      timedOut ? `The brand-voice endpoint did not answer within ${config.timeoutMs} ms` : `The brand-voice endpoint could not be reached (${e.cause?.code ?? e.name})`,
    );
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    throw upstream('brand_voice_upstream_error', `The brand-voice endpoint answered HTTP ${res.status}`, { excerpt: redact(text).slice(0, 300) });
  }
  let content: unknown;
  try {
    content = (JSON.parse(text) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
  } catch {
    throw upstream('brand_voice_malformed_answer', 'The brand-voice endpoint did not answer chat-completions JSON', { excerpt: redact(text).slice(0, 300) });
  }
  if (typeof content !== 'string') {
    throw upstream('brand_voice_malformed_answer', 'The brand-voice answer has no choices[0].message.content string');
  }
  return { ...parseVerdictText(content, redact), model: config.model };
}

/** The model's answer text as a verdict: one JSON object (a ```json fence tolerated), else a 502. */
export function parseVerdictText(content: string, redact: (s: string) => string = (s) => s): CheckerAnswer {
  let answer: unknown;
  try {
    answer = JSON.parse(unfence(content.trim()));
  } catch {
    throw upstream('brand_voice_malformed_answer', 'The model did not answer a JSON object', { excerpt: redact(content).slice(0, 300) });
  }
  const parsed = CheckerAnswer.safeParse(answer);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => ({ path: ['answer', ...i.path.map(String)].join('.'), message: i.message }));
    throw upstream('brand_voice_malformed_answer', `The model's verdict does not match the expected shape (${problems[0]!.path}: ${problems[0]!.message})`, { problems });
  }
  return parsed.data;
}
