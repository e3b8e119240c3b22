import os from 'node:os';
import type { z } from 'zod';
import type { CliError } from './cli-errors.js';
import type { CliStream } from './cli-harness.js';
import { commonCliChecks, credentialEnv, environmentResult, probeEnv } from './environment.js';
import { LineSplitter } from './line-splitter.js';
import { commandArgs, type ResolvedCommand } from './resolve-command.js';
import { runChildProcess } from './run-child-process.js';
import type { EnvironmentCheck, EnvironmentTestContext, EnvironmentTestResult } from './types.js';

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

/** What an adapter says of its hello probe; the harness adds the command, environment and folder. */
export type HelloProbeSpec<S extends CliStream> = Omit<HelloProbeOptions<S>, 'resolved' | 'env' | 'cwd' | 'state'> & {
  /** Added to the probe's environment. */
  env?: Record<string, string>;
};

export interface CliEnvironmentSpec<C extends { command: string; helloProbe?: boolean | undefined }, S extends CliStream> {
  type: string;
  schema: z.ZodType<C>;
  installHint: string;
  /** Variables the CLI needs for every check (e.g. no update check). */
  extraEnv?: Record<string, string>;
  /** The adapter's own checks after the common ones: its credentials, its settings. */
  checks: (found: Awaited<ReturnType<typeof cliEnvironmentChecks<C>>>) => EnvironmentCheck[] | Promise<EnvironmentCheck[]>;
  /** The stream state the probe's output is read into. */
  probeState: () => S;
  /** One real prompt, when the configuration asks for it (see helloProbe). */
  helloProbe: (config: C, cwd: string) => HelloProbeSpec<S>;
}

/**
 * testEnvironment of a local CLI adapter: the common checks, the adapter's own, then the hello
 * probe when asked for and nothing blocks; secrets are resolved for the probe only.
 */
export async function cliEnvironmentTest<C extends { command: string; helloProbe?: boolean | undefined }, S extends CliStream>(ctx: EnvironmentTestContext, spec: CliEnvironmentSpec<C, S>): Promise<EnvironmentTestResult> {
  const found = await cliEnvironmentChecks(ctx, spec.schema, spec.installHint, spec.extraEnv);
  const { config, env, cwd, checks, resolved } = found;
  checks.push(...(await spec.checks(found)));
  if (helloProbeWanted(config, resolved, checks)) {
    const { env: probeExtra, ...probe } = spec.helloProbe(config, cwd);
    const probeEnvironment = { ...(await credentialEnv(ctx, { ...spec.extraEnv, ...env })), ...probeExtra };
    checks.push(await helloProbe({ ...probe, state: spec.probeState(), resolved, env: probeEnvironment, cwd }));
  }
  return environmentResult(spec.type, checks);
}
