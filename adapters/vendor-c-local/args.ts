import type { VendorCLocalConfig } from './config.js';

export interface GeminiArgsInput {
  config: VendorCLocalConfig;
  resumeSessionId: string | null;
  /** The per-run directory holding the product skill, added to the workspace so it can be read. */
  skillsRoot: string | null;
}

/**
 * The Gemini CLI command line without the prompt: stream-json output, the approval mode, and
 * `--resume <session id>`. The workspace directories go as one `--include-directories=a,b` value (the
 * option is variadic and would swallow what follows).
 */
export function geminiArgs({ config, resumeSessionId, skillsRoot }: GeminiArgsInput): string[] {
  const args = ['--output-format', 'stream-json', '--approval-mode', config.approvalMode];
  if (config.skipTrust) args.push('--skip-trust');
  if (resumeSessionId) args.push('--resume', resumeSessionId);
  if (config.model) args.push('--model', config.model);
  const dirs = [...(config.includeDirectories ?? []), ...(skillsRoot ? [skillsRoot] : [])];
  if (dirs.length) args.push(`--include-directories=${dirs.join(',')}`);
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  return args;
}
