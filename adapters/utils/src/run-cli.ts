import os from 'node:os';
import type { ExecutionContext } from './types.js';
import { buildServiceEnv } from './env.js';
import { commandArgs, resolveCommand, type ResolvedCommand } from './resolve-command.js';
import { runChildProcess, type ChildProcessResult } from './run-child-process.js';
import { TerminalLineSplitter } from './terminal-text.js';

export interface RunCliOptions {
  /** The configured command (a name on PATH or a path). */
  command: string;
  args: string[];
  /** Absolute working directory; default the OS temp directory. */
  cwd?: string;
  /** Variables added on top of the run's `SERVICE_*` environment and the resolved adapterConfig.env. */
  env?: Record<string, string>;
  stdin?: string;
  /** Default true: local CLIs run under node-pty (DESIGN.md, "Agent processes"). */
  pty?: boolean;
  timeoutSec?: number;
  graceMs?: number;
  idleTimeoutSec?: number;
  /** Arguments as recorded on the run (e.g. without a prompt passed as an argument); default `args`. */
  metaArgs?: string[];
  /** Each whole stdout line as the terminal shows it (escapes, redraws and CR rendered away, see terminal-text.ts). */
  onLine: (line: string) => void;
  /** Each whole stderr line (pipes only; under a PTY everything is stdout). */
  onStderrLine?: (line: string) => void;
}

export interface RunCliResult extends ChildProcessResult {
  resolved: ResolvedCommand;
}

export class CliNotFoundError extends Error {
  readonly code = 'cli_not_found';
  constructor(command: string) {
    super(`"${command}" is not an executable file or on PATH`);
  }
}

/** The environment a CLI of this run gets: resolved adapterConfig.env, then `SERVICE_*`, then extras. */
export function runEnv(ctx: ExecutionContext, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...ctx.runtime.env,
    ...buildServiceEnv({
      apiUrl: ctx.runtime.apiUrl,
      apiKey: ctx.runtime.apiKey,
      runId: ctx.runId,
      agent: ctx.agent,
      taskId: ctx.context.taskId ?? null,
      taskTitle: ctx.context.taskTitle ?? null,
      wakeReason: ctx.runtime.wakeReason ?? null,
    }),
    ...extra,
  };
}

/**
 * Runs a local agent CLI for one heartbeat: resolves the command on the run's PATH (Windows shims
 * included), reports the command line and pid through `onMeta`, streams raw output to the
 * transcript through `onLog`, and hands the adapter's parser whole, cleaned lines. Throws
 * `CliNotFoundError` (code `cli_not_found`) when the command cannot be found.
 */
export async function runCli(ctx: ExecutionContext, options: RunCliOptions): Promise<RunCliResult> {
  const env = runEnv(ctx, options.env);
  const resolved = resolveCommand(options.command, { ...process.env, ...env });
  if (!resolved) throw new CliNotFoundError(options.command);
  const cwd = options.cwd || os.tmpdir();
  const args = commandArgs(resolved, options.args);
  ctx.onMeta({ command: resolved.command, args: options.metaArgs ? commandArgs(resolved, options.metaArgs) : args, cwd });
  const out = new TerminalLineSplitter();
  const err = new TerminalLineSplitter();
  // Lines are handed on in output order once rendered; the result waits for the last of them.
  let delivery: Promise<void> = Promise.resolve();
  const deliver = (rendered: Promise<string[]>, to: ((line: string) => void) | undefined) => {
    delivery = delivery.then(async () => {
      for (const line of await rendered) to?.(line);
    });
  };
  const result = await runChildProcess(resolved.command, {
    args,
    cwd,
    env,
    pty: options.pty ?? true,
    timeout: (options.timeoutSec ?? 300) * 1000,
    graceMs: options.graceMs ?? 10_000,
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
    ...(options.idleTimeoutSec ? { idleTimeout: options.idleTimeoutSec * 1000 } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(resolved.viaCmd ? { windowsVerbatimArguments: true } : {}),
    onStdout: (chunk) => {
      ctx.onLog('stdout', chunk);
      deliver(out.push(chunk), options.onLine);
    },
    onStderr: (chunk) => {
      ctx.onLog('stderr', chunk);
      deliver(err.push(chunk), options.onStderrLine);
    },
    onSpawn: (pid) => ctx.onMeta({ pid }),
  });
  deliver(out.end(), options.onLine);
  deliver(err.end(), options.onStderrLine);
  await delivery;
  return { ...result, resolved };
}
