import os from 'node:os';
import path from 'node:path';
import { settingsModel, type DetectedModel } from '@service/adapter-utils';
import { CURSOR_MODELS } from './models.js';

/**
 * The model the Cursor CLI would use without `--model`: `model` of its cli-config.json
 * (`$CURSOR_CONFIG_DIR` or `~/.cursor`), as an id string or `{modelId}`; else its default (auto).
 */
export async function detectModel(env: NodeJS.ProcessEnv = process.env): Promise<DetectedModel> {
  const candidates = CURSOR_MODELS.map((m) => m.id);
  const file = path.join(env.CURSOR_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.cursor'), 'cli-config.json');
  const model = settingsModel(file, 'modelId');
  if (model) return { model, provider: 'cursor', source: file, candidates };
  return { model: null, provider: 'cursor', source: 'default', candidates };
}
