import { cliModelsOutput, type AdapterModel, type ListModelsOptions } from '@service/adapter-utils';

const DISCOVERY_TIMEOUT_MS = 60_000;

/**
 * Spec 4.2: OpenCode's models come only from its own discovery, `opencode models` (one
 * `provider/model` per line, from its configured providers and models catalogue). There is no
 * static fallback: when the CLI is missing, fails or times out, the list is empty.
 */
export async function listOpenCodeModels(options: ListModelsOptions = {}): Promise<AdapterModel[]> {
  const out = await cliModelsOutput({ command: options.command ?? 'opencode', args: ['models'], env: options.env, extraEnv: { OPENCODE_DISABLE_AUTOUPDATE: '1' }, timeoutMs: DISCOVERY_TIMEOUT_MS });
  if (out === null) return [];
  const ids = out
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^[A-Za-z0-9][\w.-]*\/\S+$/.test(l) && l.length <= 200);
  return [...new Set(ids)].map((id) => ({ id, label: id }));
}
