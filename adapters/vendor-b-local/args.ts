import type { VendorBLocalConfig } from './config.js';

export interface CodexArgsInput {
  config: VendorBLocalConfig;
  resumeThreadId: string | null;
  /** The per-run directory holding the product skill, made readable to the sandbox. */
  skillsRoot: string | null;
}

/**
 * The Codex command line without the prompt: `codex exec --json [options] [resume <thread id>]`.
 * Options go before the `resume` subcommand, where `exec` parses them for both forms.
 */
export function codexArgs({ config, resumeThreadId, skillsRoot }: CodexArgsInput): string[] {
  const args = ['exec', '--json'];
  if (config.skipGitRepoCheck) args.push('--skip-git-repo-check');
  if (config.model) args.push('--model', config.model);
  if (config.bypassSandbox) args.push('--dangerously-bypass-approvals-and-sandbox');
  else {
    args.push('--sandbox', config.sandbox);
    if (config.sandbox === 'workspace-write' && config.networkAccess) args.push('-c', 'sandbox_workspace_write.network_access=true');
  }
  if (config.reasoningEffort) args.push('-c', `model_reasoning_effort="${config.reasoningEffort}"`);
  for (const override of config.configOverrides ?? []) args.push('-c', override);
  if (skillsRoot) args.push('--add-dir', skillsRoot);
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  if (resumeThreadId) args.push('resume', resumeThreadId);
  return args;
}
