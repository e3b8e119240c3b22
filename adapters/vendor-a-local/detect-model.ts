import os from 'node:os';
import path from 'node:path';
import { settingsModel, type DetectedModel } from '@service/adapter-utils';
import { CLAUDE_MODELS } from './models.js';

/**
 * The model Claude Code would use without `--model`: `ANTHROPIC_MODEL`, else the `model` of the
 * user settings (`$CLAUDE_CONFIG_DIR/settings.json`, default `~/.claude/settings.json`), else
 * none (the CLI's own default).
 */
export async function detectModel(env: NodeJS.ProcessEnv = process.env): Promise<DetectedModel> {
  const candidates = CLAUDE_MODELS.map((m) => m.id);
  if (env.ANTHROPIC_MODEL) return { model: env.ANTHROPIC_MODEL, provider: 'anthropic', source: 'env:ANTHROPIC_MODEL', candidates };
  const dir = env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.claude');
  const file = path.join(dir, 'settings.json');
  const model = settingsModel(file);
  if (model) return { model, provider: 'anthropic', source: file, candidates };
  return { model: null, provider: 'anthropic', source: 'default', candidates };
}
