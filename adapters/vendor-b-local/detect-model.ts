import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DetectedModel } from '@service/adapter-utils';
import { CODEX_MODELS } from './models.js';

export interface CodexConfigFile {
  file: string;
  model: string | null;
  modelProvider: string | null;
  /** `[model_providers.<id>]` tables: base URL and the env variable holding the key. */
  providers: Record<string, { baseUrl?: string; envKey?: string }>;
}

const unquote = (v: string) => v.trim().replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1');

/**
 * The few keys of `$CODEX_HOME/config.toml` the adapter needs, read line by line: top-level
 * `model` and `model_provider`, and `base_url`/`env_key` of `[model_providers.<id>]` tables.
 */
export function readCodexConfig(env: Record<string, string | undefined>): CodexConfigFile | null {
  const file = path.join(env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex'), 'config.toml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  const out: CodexConfigFile = { file, model: null, modelProvider: null, providers: {} };
  let table: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      table = header[1]!.trim();
      continue;
    }
    const kv = /^([A-Za-z0-9_.-]+)\s*=\s*(.+)$/.exec(line);
    if (!kv) continue;
    const [, key, value] = kv as unknown as [string, string, string];
    if (table === null && key === 'model') out.model = unquote(value) || null;
    if (table === null && key === 'model_provider') out.modelProvider = unquote(value) || null;
    const provider = table?.startsWith('model_providers.') ? unquote(table.slice('model_providers.'.length)) : null;
    if (provider && (key === 'base_url' || key === 'env_key')) {
      out.providers[provider] ??= {};
      out.providers[provider]![key === 'base_url' ? 'baseUrl' : 'envKey'] = unquote(value);
    }
  }
  return out;
}

export async function detectModelFromEnv(env: Record<string, string | undefined>): Promise<DetectedModel> {
  const candidates = CODEX_MODELS.map((m) => m.id);
  const config = readCodexConfig(env);
  const provider = config?.modelProvider ?? 'openai';
  if (config?.model) return { model: config.model, provider, source: config.file, candidates };
  return { model: null, provider, source: 'default', candidates };
}

/** The model Codex would use without `--model`: `model` of `$CODEX_HOME/config.toml`, else its default. */
export async function detectModel(): Promise<DetectedModel> {
  return detectModelFromEnv(process.env);
}
