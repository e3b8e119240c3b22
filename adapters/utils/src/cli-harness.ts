import os from 'node:os';
import type { CliError } from './cli-errors.js';
import type { CliRunConfig } from './cli-config.js';
import { runCli, type RunCliResult } from './run-cli.js';
import { createEphemeralSkillsDir, type EphemeralSkillsDir } from './skills-dir.js';
import type { ExecutionContext, ExecutionResult, UsageReport } from './types.js';

/**
 * The harness of every local coding-agent CLI adapter: it owns spawning (PTY or pipes, through
 * runCli), the line reader feeding the adapter's stream state, the one-time session announcement,
 * the per-run skills folder, timeouts, the adapter's own stop (max turns) and cancellation, and the
 * order in which a finished run's facts become its result (`cliOutcome`). An adapter says only
 * what differs: its arguments, what its events mean, how its errors read.
 */

/** What the harness needs of an adapter's stream state (see JsonLineState). */
export interface CliStream {
  push(line: string): unknown;
  readonly plainLines: string[];
}

/** One invocation of the CLI, built once the run's skills folder (if any) exists. */
export interface CliInvocation<S extends CliStream> {
  config: CliRunConfig;
  cwd: string;
  /** The arguments recorded on the run (without a prompt passed as an argument). */
  args: string[];
  /** The arguments given to the CLI: `args` plus the prompt wherever this CLI wants it. */
  argv: string[];
  /** The prompt on stdin (pipes), when the CLI reads it there. */
  stdin?: string;
  /** Added to the run's environment (`SERVICE_PROMPT`, self-update switches...). */
  env: Record<string, string>;
  /** The session id once the stream has named it: announced once through `onMeta`. */
  sessionOf: (state: S) => string | null;
  /** More facts announced with the session id (the model...). */
  meta?: (state: S) => Record<string, unknown>;
  /** Whether a stored session is being resumed (announced with the session id). */
  resumed: boolean;
  /** The adapter's own reason to stop the CLI early (e.g. more turns than `maxTurns`); checked after each line. */
  stopWhen?: (state: S) => CliError | null;
}

export interface CliRun<S extends CliStream> {
  state: S;
  run: RunCliResult;
  /** Why the adapter stopped the CLI itself, when it did. */
  stopped: CliError | null;
}

export interface CliHeartbeatOptions<S extends CliStream> {
  /** The adapter's stream state: every stdout and stderr line goes to its `push`. */
  state: S;
  /** Where the per-run skill folders go inside the skills root (`.claude/skills`, `skills`); absent: no skills folder. */
  skillsSubdir?: string;
  start: (skills: EphemeralSkillsDir | null) => CliInvocation<S> | Promise<CliInvocation<S>>;
  finish: (run: CliRun<S>) => ExecutionResult;
}

/** The working directory of a run: the configured one, else the OS temp directory. */
export const runCwd = (config: { cwd?: string | undefined }): string => config.cwd ?? os.tmpdir();

/** One heartbeat of a local CLI; never throws (a failure to start is an `execution_error` or `cli_not_found` result). */
export async function runCliHeartbeat<S extends CliStream>(ctx: ExecutionContext, options: CliHeartbeatOptions<S>): Promise<ExecutionResult> {
  // The adapter's own stop and the engine's cancel both end the process.
  const stop = new AbortController();
  const forward = () => stop.abort();
  ctx.signal?.addEventListener('abort', forward, { once: true });
  if (ctx.signal?.aborted) stop.abort();
  let skills: EphemeralSkillsDir | null = null;
  try {
    if (options.skillsSubdir !== undefined && ctx.runtime.skills?.length) skills = createEphemeralSkillsDir({ skills: ctx.runtime.skills, skillsSubdir: options.skillsSubdir });
    const inv = await options.start(skills);
    const { state } = options;
    const { config } = inv;
    let announced = false;
    let stopped: CliError | null = null;
    const onLine = (line: string) => {
      state.push(line);
      const sessionId = announced ? null : inv.sessionOf(state);
      if (sessionId) {
        announced = true;
        ctx.onMeta({ sessionId, ...inv.meta?.(state), resumed: inv.resumed });
      }
      if (!stopped && inv.stopWhen) {
        stopped = inv.stopWhen(state);
        if (stopped) stop.abort();
      }
    };
    const run = await runCli(
      { ...ctx, signal: stop.signal },
      {
        command: config.command,
        args: inv.argv,
        metaArgs: inv.args,
        cwd: inv.cwd,
        env: inv.env,
        pty: config.pty,
        ...(inv.stdin !== undefined ? { stdin: inv.stdin } : {}),
        timeoutSec: config.timeoutSec,
        graceMs: config.graceMs,
        ...(config.idleTimeoutSec ? { idleTimeoutSec: config.idleTimeoutSec } : {}),
        onLine,
        onStderrLine: (line) => state.push(line),
      },
    );
    return options.finish({ state, run, stopped });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return { exitCode: null, timedOut: false, errorCode: typeof code === 'string' ? code : 'execution_error', errorMessage: (err as Error).message };
  } finally {
    ctx.signal?.removeEventListener('abort', forward);
    skills?.cleanup();
  }
}

export interface CliOutcomeInput {
  /** The CLI as messages name it ("Claude Code", "The Gemini CLI"). */
  name: string;
  run: Pick<RunCliResult, 'exitCode' | 'signal' | 'timedOut' | 'idleTimedOut'>;
  usage: UsageReport | null;
  summary: string | null;
  /** The classified error (login, unknown session, rate limit, max turns), if any. */
  error: CliError | null;
  /** The serialized session to keep for the next run; null keeps the stored one. */
  session: Record<string, unknown> | null;
  stopped?: CliError | null;
  /** A failure the stream reported that is none of the classified errors (an error result, a failed turn). */
  failure?: { errorCode: string; errorMessage: string } | null;
  /** The stream reached its end (a result line, a finished turn or step). */
  finished: boolean;
  /** What a clean exit without `finished` means, after the name: "ended without a result line". */
  noResult: string;
  plainLines: string[];
  /** Keep the new session even when the stream did not finish. */
  keepSessionUnfinished?: boolean;
}

/**
 * A finished CLI run as an ExecutionResult, in one order for every adapter: an unknown session
 * clears the stored one (the engine then retries once with a fresh session), then the adapter's
 * own stop, the idle timeout, the classified error, a reported failure, a clean exit without a
 * result (a failure too), and the last plain lines of a crash.
 */
export function cliOutcome(o: CliOutcomeInput): ExecutionResult {
  const base: ExecutionResult = { exitCode: o.run.exitCode, signal: o.run.signal, timedOut: o.run.timedOut, usage: o.usage, summary: o.summary };
  if (o.error?.code === 'unknown_session') return { ...base, ...o.error.toResult(), sessionParams: null };
  const keep = o.session ? { ...base, sessionParams: o.session } : base;
  if (o.stopped) return { ...keep, ...o.stopped.toResult() };
  if (o.run.idleTimedOut) return { ...keep, errorCode: 'idle_timeout', errorMessage: `${o.name} printed nothing for too long` };
  if (o.error) return { ...keep, ...o.error.toResult() };
  if (o.failure) return { ...keep, ...o.failure };
  const unfinished = o.keepSessionUnfinished ? keep : base;
  const tail = o.plainLines.slice(-3).join(' / ');
  if (!o.finished && o.run.exitCode === 0 && !o.run.timedOut) return { ...unfinished, errorCode: 'no_result', errorMessage: `${o.name} ${o.noResult}${tail ? `: ${tail}` : ''}` };
  if (!o.finished && o.run.exitCode !== 0 && tail) return { ...unfinished, errorMessage: tail };
  return keep;
}
