import os from 'node:os';
import type { z } from 'zod';
import type { CliError } from './cli-errors.js';
import type { CliStream } from './cli-harness.js';
import { commonCliChecks, probeEnv } from './environment.js';
import { LineSplitter } from './line-splitter.js';
import { commandArgs, type ResolvedCommand } from './resolve-command.js';
import { runChildProcess } from './run-child-process.js';
import type { EnvironmentCheck, EnvironmentTestContext } from './types.js';

export const HELLO_PROMPT = 'Reply with the single word: hello';

/**
 * The first half of every CLI adapter's testEnvironment: its configuration (defaults when invalid:
 * the schema's own errors are reported elsewhere), the probe environment, the working directory,
 * and the common checks (cwd, command on PATH, version).
 */
export async function cliEnvironmentChecks<C extends { command: string }>(ctx: EnvironmentTestContext, schema: z.ZodType<C>, installHint: string, extraEnv: Record<string, string> = {}) {
  const parsed = schema.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : schema.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env: { ...extraEnv, ...env }, installHint });
  return { config, env, cwd, checks, resolved };
}

/** The hello probe runs only when asked for, and only when nothing already blocks the CLI. */
export const helloProbeWanted = (config: { helloProbe?: boolean | undefined }, resolved: ResolvedCommand | null, checks: EnvironmentCheck[]): resolved is ResolvedCommand =>
  config.helloProbe === true && resolved !== null && !checks.some((c) => c.level === 'error');

export interface HelloProbeOptions<S extends CliStream> {
  /** The CLI as the answer names it ("Claude answered: …"). */
  name: string;
  resolved: ResolvedCommand;
  env: Record<string, string>;
  cwd: string;
  args: string[];
  /** The prompt on stdin; null when it is an argument. */
  stdin?: string | null;
  timeoutMs?: number;
  state: S;
  /** Whether stderr chunks are split into lines before the state reads them. */
  splitStderr?: boolean;
  classify: (state: S) => CliError | null;
  /** The answer when the CLI answered, else null. */
  answer: (state: S, exitCode: number | null) => string | null;
  /** Why it did not answer, as the CLI said it (empty: the exit code is shown). */
  failure: (state: S) => string | null | undefined;
}

/** The optional hello probe: one real prompt, one turn, its answer or its error as a check. */
export async function helloProbe<S extends CliStream>(o: HelloProbeOptions<S>): Promise<EnvironmentCheck> {
  const lines = new LineSplitter();
  const { state } = o;
  const stdin = o.stdin === undefined ? HELLO_PROMPT : o.stdin;
  const run = await runChildProcess(o.resolved.command, {
    args: commandArgs(o.resolved, o.args),
    cwd: o.cwd,
    env: o.env,
    ...(stdin !== null ? { stdin } : {}),
    timeout: o.timeoutMs ?? 60_000,
    graceMs: 1000,
    onStdout: (c) => lines.push(c).forEach((l) => state.push(l)),
    onStderr: (c) => (o.splitStderr ? c.split('\n').forEach((l) => state.push(l)) : void state.push(c)),
  });
  lines.end().forEach((l) => state.push(l));
  const error = o.classify(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  const answer = o.answer(state, run.exitCode);
  if (answer !== null) return { level: 'info', code: 'hello_probe_ok', message: `${o.name} answered: ${answer.slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: o.failure(state) || `exit ${run.exitCode}` };
}
