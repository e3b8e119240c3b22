import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DetectedModel } from '@service/adapter-utils';
import { CURSOR_MODELS } from './models.js';

/**
 * The model the Cursor CLI would use without `--model`: `model` of its cli-config.json
 * (`$CURSOR_CONFIG_DIR` or `~/.cursor`), as an id string or `{modelId}`; else its default (auto).
 */
export async function detectModel(env: NodeJS.ProcessEnv = process.env): Promise<DetectedModel> {
  const candidates = CURSOR_MODELS.map((m) => m.id);
  const file = path.join(env.CURSOR_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.cursor'), 'cli-config.json');
  try {
    const config = JSON.parse(readFileSync(file, 'utf8')) as { model?: unknown };
    const raw = config.model;
    const model = typeof raw === 'string' ? raw : raw && typeof raw === 'object' && typeof (raw as { modelId?: unknown }).modelId === 'string' ? (raw as { modelId: string }).modelId : null;
    if (model?.trim()) return { model: model.trim(), provider: 'cursor', source: file, candidates };
  } catch {
    // No config file: the CLI's default.
  }
  return { model: null, provider: 'cursor', source: 'default', candidates };
}
