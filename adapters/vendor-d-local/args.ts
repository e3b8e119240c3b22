import type { VendorDLocalConfig } from './config.js';

/** The OpenCode command line without the prompt: `opencode run --format json [-s <session>]`. */
export function opencodeArgs(config: VendorDLocalConfig, resumeSessionId: string | null): string[] {
  const args = ['run', '--format', 'json'];
  if (resumeSessionId) args.push('--session', resumeSessionId);
  if (config.model) args.push('--model', config.model);
  if (config.agent) args.push('--agent', config.agent);
  if (config.variant) args.push('--variant', config.variant);
  if (config.autoApprove) args.push('--auto');
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  return args;
}
