import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DetectedModel } from '@service/adapter-utils';
import { GEMINI_MODELS } from './models.js';

function settingsModel(file: string): string | null {
  try {
    const settings = JSON.parse(readFileSync(file, 'utf8')) as { model?: unknown };
    const m = settings.model;
    const name = typeof m === 'string' ? m : m && typeof m === 'object' ? (m as { name?: unknown }).name : null;
    return typeof name === 'string' && name.trim() ? name.trim() : null;
  } catch {
    return null;
  }
}

/** The model the Gemini CLI would use without `--model`: `GEMINI_MODEL`, else `model.name` of `~/.gemini/settings.json`. */
export async function detectModel(env: Record<string, string | undefined> = process.env): Promise<DetectedModel> {
  const candidates = GEMINI_MODELS.map((m) => m.id);
  if (env.GEMINI_MODEL) return { model: env.GEMINI_MODEL, provider: 'google', source: 'env:GEMINI_MODEL', candidates };
  const file = path.join(env.HOME || os.homedir(), '.gemini', 'settings.json');
  const model = settingsModel(file);
  if (model) return { model, provider: 'google', source: file, candidates };
  return { model: null, provider: 'google', source: 'default', candidates };
}
