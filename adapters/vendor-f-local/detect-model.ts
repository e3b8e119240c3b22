import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DetectedModel } from '@service/adapter-utils';
import { PI_MODELS } from './models.js';

/** Pi's agent directory: `PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv | Record<string, string | undefined>): string {
  return env.PI_CODING_AGENT_DIR || path.join(env.HOME || os.homedir(), '.pi', 'agent');
}

/** The model pi would use without `--model`: `defaultProvider`/`defaultModel` of its settings.json. */
export async function detectModel(env: NodeJS.ProcessEnv = process.env): Promise<DetectedModel> {
  const candidates = PI_MODELS.map((m) => m.id);
  const file = path.join(piAgentDir(env), 'settings.json');
  try {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { defaultProvider?: unknown; defaultModel?: unknown };
    const model = typeof settings.defaultModel === 'string' && settings.defaultModel.trim() ? settings.defaultModel.trim() : null;
    const provider = typeof settings.defaultProvider === 'string' && settings.defaultProvider.trim() ? settings.defaultProvider.trim() : null;
    if (model || provider) return { model, provider, source: file, candidates };
  } catch {
    // No settings file: pi's built-in default.
  }
  return { model: null, provider: null, source: 'default', candidates };
}
