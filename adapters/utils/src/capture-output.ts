import { commandArgs, type ResolvedCommand } from './resolve-command.js';
import { runChildProcess, type ChildProcessResult } from './run-child-process.js';

export interface CaptureOptions {
  args: string[];
  env: Record<string, string>;
  timeoutMs: number;
  /** Whether stderr joins the captured output (CLIs that print their answer there). */
  stderr?: boolean;
}

/**
 * A short CLI query (its version, its model list): the resolved command run with pipes and a time
 * limit, its whole output collected. Throws when the command cannot be started.
 */
export async function captureOutput(resolved: ResolvedCommand, o: CaptureOptions): Promise<ChildProcessResult & { out: string }> {
  let out = '';
  const result = await runChildProcess(resolved.command, {
    args: commandArgs(resolved, o.args),
    env: o.env,
    timeout: o.timeoutMs,
    graceMs: 1000,
    onStdout: (c) => (out += c),
    onStderr: (c) => {
      if (o.stderr) out += c;
    },
    ...(resolved.viaCmd ? { windowsVerbatimArguments: true } : {}),
  });
  return { ...result, out };
}
