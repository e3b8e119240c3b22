import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DetectedModel } from '@service/adapter-utils';

/**
 * The model OpenCode would use without `--model`: `model` of `OPENCODE_CONFIG_CONTENT`, else of
 * `~/.config/opencode/opencode.json` (`$XDG_CONFIG_HOME`), else none (its own default). OpenCode
 * has no static model list: candidates come from `opencode models` (listModels).
 */
export async function detectModel(env: Record<string, string | undefined> = process.env): Promise<DetectedModel> {
  const read = (text: string | undefined): string | null => {
    try {
      const model = text ? (JSON.parse(text) as { model?: unknown }).model : null;
      return typeof model === 'string' && model.includes('/') ? model : null;
    } catch {
      return null;
    }
  };
  const inline = read(env.OPENCODE_CONFIG_CONTENT);
  if (inline) return { model: inline, provider: inline.split('/')[0]!, source: 'env:OPENCODE_CONFIG_CONTENT', candidates: [] };
  const dir = path.join(env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config'), 'opencode');
  for (const name of ['opencode.json', 'opencode.jsonc', 'config.json']) {
    const file = path.join(dir, name);
    let text: string | undefined;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    // JSONC: drop whole-line comments before parsing.
    const model = read(text.replace(/^\s*\/\/.*$/gm, ''));
    if (model) return { model, provider: model.split('/')[0]!, source: file, candidates: [] };
  }
  return { model: null, provider: null, source: 'default', candidates: [] };
}
