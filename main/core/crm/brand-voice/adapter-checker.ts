import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from '@service/adapter-utils';
import type { AdapterDescriptor } from '../../../../adapters/types.js';
import { ServiceError } from '../../kernel/errors.js';
import { parseVerdictText, SYSTEM_PROMPT, upstream, type BrandVoiceCheckerResult } from './checker.js';

export interface AdapterCheckInput {
  companyId: string;
  adapter: AdapterDescriptor;
  /** Parsed by the adapter's schema (its defaults filled in). */
  config: Record<string, unknown>;
  /** The config's env with secret references resolved. */
  env: Record<string, string>;
  /** The guide as the model reads it. */
  guideText: string;
  draft: string;
}

export const unavailable = (message: string) => new ServiceError(503, 'brand_voice_unavailable', message);

/**
 * The model-backed check through an adapter: one print-mode run of the board's chosen CLI (e.g.
 * `claude -p`) with the review prompt, outside any heartbeat (no agent, no run token, no API
 * access). The CLI's final answer (the adapter's `summary`) must be the verdict JSON. A CLI that
 * is not installed is "unavailable" (503); any other failure is the upstream's (502).
 */
export async function checkWithAdapter(input: AdapterCheckInput): Promise<BrandVoiceCheckerResult> {
  let model: string | null = null;
  const ctx: ExecutionContext = {
    config: input.config,
    agent: { id: 'brand-voice-checker', name: 'Brand-voice checker', companyId: input.companyId },
    runtime: {
      apiUrl: '',
      apiKey: '',
      env: input.env,
      sessionParams: null,
      prompt: `${SYSTEM_PROMPT}\n\nBrand-voice guide:\n${input.guideText}\n\nDraft to review:\n\n${input.draft}`,
      skills: [],
    },
    context: {},
    runId: `brand-voice-${randomUUID()}`,
    onLog: () => undefined,
    onMeta: (meta) => {
      if (typeof meta.model === 'string' && meta.model) model = meta.model;
    },
  };
  const result = await input.adapter.execute(ctx);
  if (result.errorCode === 'cli_not_found') {
    throw unavailable(`The brand-voice adapter ${input.adapter.type} cannot start its CLI: ${result.errorMessage ?? 'not found'}`);
  }
  if (result.timedOut) throw upstream('brand_voice_timeout', `The brand-voice CLI (${input.adapter.type}) did not finish in time`);
  if (result.errorCode || (result.exitCode !== null && result.exitCode !== 0)) {
    throw upstream('brand_voice_upstream_error', `The brand-voice CLI (${input.adapter.type}) failed: ${result.errorCode ?? `exit ${result.exitCode}`}`, {
      excerpt: String(result.errorMessage ?? '').slice(0, 300),
    });
  }
  if (typeof result.summary !== 'string' || !result.summary.trim()) {
    throw upstream('brand_voice_malformed_answer', `The brand-voice CLI (${input.adapter.type}) gave no final answer`);
  }
  return { ...parseVerdictText(result.summary), model: model ?? input.adapter.type };
}
