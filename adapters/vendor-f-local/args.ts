import type { VendorFLocalConfig } from './config.js';

export interface PiArgsInput {
  config: VendorFLocalConfig;
  resumeSessionId: string | null;
  /** The per-run skills directory (see skills.ts), if any. */
  skillsDir: string | null;
}

/**
 * The pi command line: print mode with the JSON event stream. The prompt is not part of it (the
 * caller appends it under a PTY, or sends it on stdin).
 */
export function piArgs({ config, resumeSessionId, skillsDir }: PiArgsInput): string[] {
  const args = ['-p', '--mode', 'json'];
  if (config.provider) args.push('--provider', config.provider);
  if (config.model) args.push('--model', config.model);
  if (config.thinking) args.push('--thinking', config.thinking);
  // Pi lists skills to the model only when it can `read` them: the heartbeat skill needs it.
  if (config.tools?.length) args.push('--tools', (skillsDir && !config.tools.includes('read') ? [...config.tools, 'read'] : config.tools).join(','));
  if (config.appendSystemPrompt) args.push('--append-system-prompt', config.appendSystemPrompt);
  if (config.sessionDir) args.push('--session-dir', config.sessionDir);
  if (resumeSessionId) args.push('--session', resumeSessionId);
  if (skillsDir) args.push('--skill', skillsDir);
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  return args;
}

/**
 * Pi reads any argument starting with `-` as an option and `@` as a file to attach, and has no
 * `--` separator: a leading space keeps such a prompt a message without changing what it says.
 */
export function promptArg(prompt: string): string {
  return /^[-@]/.test(prompt) ? ` ${prompt}` : prompt;
}
