import type { VendorEConfig } from './config.js';

/** The Cursor agent command line for a headless run; the prompt is appended by the caller. */
export function cursorArgs(config: VendorEConfig, cwd: string, resumeChatId: string | null): string[] {
  const args = ['-p', '--output-format', 'stream-json', '--workspace', cwd];
  if (resumeChatId) args.push('--resume', resumeChatId);
  if (config.model) args.push('--model', config.model);
  if (config.mode !== 'agent') args.push('--mode', config.mode);
  if (config.force) args.push('--force');
  if (config.approveMcps) args.push('--approve-mcps');
  if (config.extraArgs?.length) args.push(...config.extraArgs);
  return args;
}

/** An argument starting with `-` would be read as an option: a leading space keeps it the prompt. */
export function promptArg(prompt: string): string {
  return prompt.startsWith('-') ? ` ${prompt}` : prompt;
}
