import { cliModelsOutput, type AdapterModel, type ListModelsOptions } from '@service/adapter-utils';
import { PI_MODELS } from './models.js';

const DISCOVERY_TIMEOUT_MS = 30_000;
/** pi knows hundreds of models once several providers are signed in; a picker needs no more. */
const MAX_MODELS = 500;

/**
 * What the installed pi reports: `pi --list-models` prints (on stderr) a table (`provider  model  context…`)
 * of the models its signed-in providers offer. When pi is missing, fails, or has no provider yet
 * ("No models available"), the maintained list stands in, so the picker is never empty.
 */
export async function listPiModels(options: ListModelsOptions = {}): Promise<AdapterModel[]> {
  // pi prints the table on stderr.
  const out = await cliModelsOutput({ command: options.command ?? 'pi', args: ['--list-models'], env: options.env, timeoutMs: DISCOVERY_TIMEOUT_MS, stderr: true });
  if (out === null) return PI_MODELS;
  const models = parsePiModelTable(out);
  return models.length ? models.slice(0, MAX_MODELS) : PI_MODELS;
}

/** Rows of the `--list-models` table: a provider, a model id, then the context size (a number). */
export function parsePiModelTable(out: string): AdapterModel[] {
  const seen = new Set<string>();
  const models: AdapterModel[] = [];
  for (const line of out.split(/\r?\n/)) {
    const m = /^([A-Za-z0-9][\w.-]*)\s+(\S+)\s+\d/.exec(line.trim());
    if (!m || m[2]!.length > 200) continue;
    const id = `${m[1]}/${m[2]}`;
    if (seen.has(id)) continue;
    seen.add(id);
    models.push({ id, label: `${m[2]} (${m[1]})` });
  }
  return models;
}
