import { commandArgs, resolveCommand, runChildProcess, type AdapterModel } from '@service/adapter-utils';

const DISCOVERY_TIMEOUT_MS = 60_000;

export interface ListModelsOptions {
  command?: string;
  env?: Record<string, string | undefined>;
}

/**
 * Spec 4.2: OpenCode's models come only from its own discovery, `opencode models` (one
 * `provider/model` per line, from its configured providers and models catalogue). There is no
 * static fallback: when the CLI is missing, fails or times out, the list is empty.
 */
export async function listOpenCodeModels(options: ListModelsOptions = {}): Promise<AdapterModel[]> {
  const env = Object.fromEntries(Object.entries({ ...process.env, ...options.env }).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const resolved = resolveCommand(options.command ?? 'opencode', env);
  if (!resolved) return [];
  let out = '';
  try {
    const run = await runChildProcess(resolved.command, {
      args: commandArgs(resolved, ['models']),
      // The probe gets the built agent environment (runChildProcess), never the server's whole one.
      env: { ...(options.env ?? {}), OPENCODE_DISABLE_AUTOUPDATE: '1' },
      timeout: DISCOVERY_TIMEOUT_MS,
      graceMs: 1000,
      onStdout: (c) => (out += c),
      onStderr: () => undefined,
      ...(resolved.viaCmd ? { windowsVerbatimArguments: true } : {}),
    });
    if (run.exitCode !== 0) return [];
  } catch {
    return [];
  }
  const ids = out
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /^[A-Za-z0-9][\w.-]*\/\S+$/.test(l) && l.length <= 200);
  return [...new Set(ids)].map((id) => ({ id, label: id }));
}
