import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DetectedModel } from '@service/adapter-utils';
import { QWEN_MODELS } from './models.js';

function settingsModel(file: string): string | null {
  try {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { model?: unknown };
    const m = settings.model;
    // Newer settings nest it (`model.name`); older ones had a plain string.
    const name = typeof m === 'string' ? m : m && typeof m === 'object' ? (m as { name?: unknown }).name : null;
    return typeof name === 'string' && name.trim() ? name.trim() : null;
  } catch {
    return null;
  }
}

/**
 * The model Qwen Code would use without `--model`: `OPENAI_MODEL`, else `model.name` of
 * `~/.qwen/settings.json`, else its default.
 */
export async function detectModel(env: Record<string, string | undefined> = process.env): Promise<DetectedModel> {
  const candidates = QWEN_MODELS.map((m) => m.id);
  const provider = env.OPENAI_BASE_URL ? 'openai-compatible' : 'qwen';
  if (env.OPENAI_MODEL) return { model: env.OPENAI_MODEL, provider, source: 'env:OPENAI_MODEL', candidates };
  const file = path.join(env.HOME || os.homedir(), '.qwen', 'settings.json');
  const model = settingsModel(file);
  if (model) return { model, provider, source: file, candidates };
  return { model: null, provider, source: 'default', candidates };
}
