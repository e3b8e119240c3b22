import os from 'node:os';
import path from 'node:path';
import { settingsModel, type DetectedModel } from '@service/adapter-utils';
import { GEMINI_MODELS } from './models.js';

/** The model the Gemini CLI would use without `--model`: `GEMINI_MODEL`, else `model.name` of `~/.gemini/settings.json`. */
export async function detectModel(env: Record<string, string | undefined> = process.env): Promise<DetectedModel> {
  const candidates = GEMINI_MODELS.map((m) => m.id);
  if (env.GEMINI_MODEL) return { model: env.GEMINI_MODEL, provider: 'google', source: 'env:GEMINI_MODEL', candidates };
  const file = path.join(env.HOME || os.homedir(), '.gemini', 'settings.json');
  const model = settingsModel(file, 'name');
  if (model) return { model, provider: 'google', source: file, candidates };
  return { model: null, provider: 'google', source: 'default', candidates };
}
