import type { VendorGLocalConfig } from './config.js';

export interface QwenArgsInput {
  config: VendorGLocalConfig;
  resumeSessionId: string | null;
  /** The per-run directory holding the product skill, added to the workspace so it can be read. */
  skillsRoot: string | null;
}

/**
 * The Qwen Code command line without the prompt: headless (a positional prompt), stream-json.
 * List options are variadic: passed as one `--option=a,b` value each (the prompt goes before them,
 * see execute.ts).
 */
export function qwenArgs({ config, resumeSessionId, skillsRoot }: QwenArgsInput): string[] {
  const args = ['--output-format', 'stream-json', '--approval-mode', config.approvalMode];
  if (resumeSessionId) args.push('--resume', resumeSessionId);
  if (config.model) args.push('--model', config.model);
  if (config.authType) args.push('--auth-type', config.authType);
  if (config.appendSystemPrompt) args.push('--append-system-prompt', config.appendSystemPrompt);
  if (config.maxTurns) args.push('--max-session-turns', String(config.maxTurns));
  if (config.allowedTools?.length) args.push(`--allowed-tools=${config.allowedTools.join(',')}`);
  if (config.excludeTools?.length) args.push(`--exclude-tools=${config.excludeTools.join(',')}`);
  if (skillsRoot) args.push(`--include-directories=${skillsRoot}`);
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  return args;
}
