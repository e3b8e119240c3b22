import type { VendorALocalConfig } from './config.js';

export interface ClaudeArgsInput {
  config: VendorALocalConfig;
  resumeSessionId: string | null;
  /** The per-run directory holding `.claude/skills` (see skills.ts), if any. */
  skillsRoot: string | null;
}

/**
 * The Claude Code command line. Options that take lists (`--allowedTools`, `--add-dir`) are
 * variadic in its parser, so lists are passed as one comma-separated value and the prompt (under a
 * PTY) comes last after `--`, where no option can swallow it.
 */
export function claudeArgs({ config, resumeSessionId, skillsRoot }: ClaudeArgsInput): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--verbose'];
  if (resumeSessionId) args.push('--resume', resumeSessionId);
  if (config.model) args.push('--model', config.model);
  if (config.appendSystemPrompt) args.push('--append-system-prompt', config.appendSystemPrompt);
  if (config.maxTurns) args.push('--max-turns', String(config.maxTurns));
  args.push('--permission-mode', config.permissionMode);
  if (config.allowedTools.length) args.push('--allowedTools', config.allowedTools.join(','));
  if (config.disallowedTools?.length) args.push('--disallowedTools', config.disallowedTools.join(','));
  if (skillsRoot) args.push('--add-dir', skillsRoot);
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  return args;
}
