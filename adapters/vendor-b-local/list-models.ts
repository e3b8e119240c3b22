import type { AdapterModel } from '@service/adapter-utils';
import { CODEX_MODELS } from './models.js';
import { readCodexConfig } from './detect-model.js';

const DISCOVERY_TIMEOUT_MS = 3000;

/**
 * The provider Codex is configured for and how to ask it for models: the `base_url`/`env_key` of
 * the `model_provider` in `$CODEX_HOME/config.toml`, else `OPENAI_BASE_URL` (default the OpenAI
 * API) with `OPENAI_API_KEY`. Null when there is nothing to authenticate with.
 */
export function discoveryTarget(env: Record<string, string | undefined>): { url: string; apiKey: string | null } | null {
  const config = readCodexConfig(env);
  const provider = config?.modelProvider ? config.providers[config.modelProvider] : undefined;
  const base = provider?.baseUrl ?? env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1';
  const apiKey = env[provider?.envKey ?? 'OPENAI_API_KEY'] || null;
  // The public API needs a key; a custom provider (a local server) may not.
  if (!apiKey && !provider?.baseUrl && !env.OPENAI_BASE_URL) return null;
  return { url: `${base.replace(/\/+$/, '')}/models`, apiKey };
}

/**
 * Spec 4.2: the static list merged with the provider's discovery when available (`GET /models`
 * of an OpenAI-compatible API). Discovery failing (offline, no key, timeout) leaves the static list.
 */
export async function listCodexModels(env: Record<string, string | undefined> = process.env): Promise<AdapterModel[]> {
  const target = discoveryTarget(env);
  if (!target) return CODEX_MODELS;
  try {
    const res = await fetch(target.url, {
      headers: target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {},
      signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS),
    });
    if (!res.ok) return CODEX_MODELS;
    const body = (await res.json()) as { data?: unknown };
    const ids = Array.isArray(body.data) ? body.data.map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : null)).filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200) : [];
    const known = new Set(CODEX_MODELS.map((m) => m.id));
    return [...CODEX_MODELS, ...[...new Set(ids)].filter((id) => !known.has(id)).sort().map((id) => ({ id, label: id }))];
  } catch {
    return CODEX_MODELS;
  }
}
