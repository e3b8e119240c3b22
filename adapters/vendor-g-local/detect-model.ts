import os from 'node:os';
import path from 'node:path';
import { settingsModel, type DetectedModel } from '@service/adapter-utils';
import { QWEN_MODELS } from './models.js';

/**
 * The model Qwen Code would use without `--model`: `OPENAI_MODEL`, else `model.name` of
 * `~/.qwen/settings.json`, else its default.
 */
export async function detectModel(env: Record<string, string | undefined> = process.env): Promise<DetectedModel> {
  const candidates = QWEN_MODELS.map((m) => m.id);
  const provider = env.OPENAI_BASE_URL ? 'openai-compatible' : 'qwen';
  if (env.OPENAI_MODEL) return { model: env.OPENAI_MODEL, provider, source: 'env:OPENAI_MODEL', candidates };
  const file = path.join(env.HOME || os.homedir(), '.qwen', 'settings.json');
  const model = settingsModel(file, 'name');
  if (model) return { model, provider, source: file, candidates };
  return { model: null, provider, source: 'default', candidates };
}
