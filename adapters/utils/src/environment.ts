import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { EnvironmentCheck, EnvironmentTestResult } from './types.js';
import { captureOutput } from './capture-output.js';
import { resolveCommand, type ResolvedCommand } from './resolve-command.js';
import { renderTerminalLines } from './terminal-text.js';
import { buildAgentEnv } from './confine/agent-env.js';
import type { EnvironmentTestContext } from './types.js';

/** Stands for a secret-valued variable in environment checks, which never resolve secrets. */
export const SECRET_NOT_RESOLVED = '[secret: not resolved for environment checks]';

/** The env for a probe that needs the agent's credential: the check's env with its secrets resolved. */
export async function credentialEnv(ctx: Pick<EnvironmentTestContext, 'resolveSecrets'>, env: Record<string, string>): Promise<Record<string, string>> {
  return { ...env, ...((await ctx.resolveSecrets?.()) ?? {}) };
}

/**
 * The environment a check's probes get: the same built environment a run's process would (never
 * the server's whole environment), from the configuration's plain values.
 */
export function probeEnv(ctx: Pick<EnvironmentTestContext, 'env' | 'inheritEnv'>): Record<string, string> {
  return buildAgentEnv({ source: process.env, inherit: ctx.inheritEnv ?? [], extra: ctx.env });
}

/** The spec's result shape: `fail` exactly when some check has level `error`. */
export function environmentResult(adapterType: string, checks: EnvironmentCheck[], now: Date = new Date()): EnvironmentTestResult {
  return { adapterType, status: checks.some((c) => c.level === 'error') ? 'fail' : 'pass', checks, testedAt: now.toISOString() };
}

/**
 * The working directory check: not absolute is an `invalid_cwd` error; missing is created (a
 * `cwd_created` info) when `create` is set, else an error; present is an info.
 */
export function checkCwd(cwd: string, options: { create?: boolean } = {}): EnvironmentCheck {
  if (!path.isAbsolute(cwd)) {
    return { level: 'error', code: 'invalid_cwd', message: `The working directory "${cwd}" is not an absolute path`, hint: 'Give cwd as an absolute path, e.g. /home/me/project.' };
  }
  try {
    if (statSync(cwd).isDirectory()) return { level: 'info', code: 'cwd_exists', message: `Working directory ${cwd} exists` };
    return { level: 'error', code: 'invalid_cwd', message: `${cwd} exists but is not a directory`, hint: 'Point cwd at a folder.' };
  } catch {
    if (!options.create) return { level: 'error', code: 'cwd_missing', message: `Working directory ${cwd} does not exist`, hint: 'Create the folder or correct cwd.' };
    try {
      mkdirSync(cwd, { recursive: true });
      return { level: 'info', code: 'cwd_created', message: `Working directory ${cwd} did not exist and was created` };
    } catch (err) {
      return { level: 'error', code: 'invalid_cwd', message: `Working directory ${cwd} could not be created: ${(err as Error).message}`, hint: 'Choose a folder you can write to.' };
    }
  }
}

/** `cli_detected` (info, with the path) or `cli_not_found` (error, with the install hint). */
export function checkCommand(command: string, env: Record<string, string | undefined>, installHint: string): { check: EnvironmentCheck; resolved: ResolvedCommand | null } {
  const resolved = resolveCommand(command, env);
  if (resolved) return { resolved, check: { level: 'info', code: 'cli_detected', message: `${command} found at ${resolved.path}` } };
  return { resolved: null, check: { level: 'error', code: 'cli_not_found', message: `"${command}" is not an executable file or on PATH`, hint: installHint } };
}

/**
 * Runs `<command> --version` (pipes, 15 s limit) and reports the first line it prints as a
 * `cli_version` info, or a `cli_version_failed` warning: a CLI that cannot say its version may
 * still run.
 */
export async function checkVersion(resolved: ResolvedCommand, env: Record<string, string>, args: string[] = ['--version']): Promise<EnvironmentCheck & { version?: string }> {
  try {
    const { out, ...result } = await captureOutput(resolved, { args, env, timeoutMs: 15_000, stderr: true });
    const line = (await renderTerminalLines(out)).find((l) => l.trim())?.trim() ?? '';
    if (result.exitCode === 0 && line) return { level: 'info', code: 'cli_version', message: `Version ${line}`, version: line };
    return { level: 'warn', code: 'cli_version_failed', message: `${args.join(' ')} exited ${result.exitCode ?? result.signal}${line ? `: ${line}` : ''}` };
  } catch (err) {
    return { level: 'warn', code: 'cli_version_failed', message: `${args.join(' ')} could not run: ${(err as Error).message}` };
  }
}

export interface CommonCliChecksOptions {
  command: string;
  cwd: string;
  /** The environment the CLI will get (process env plus the resolved adapterConfig.env). */
  env: Record<string, string>;
  installHint: string;
  versionArgs?: string[];
}

/** The checks every local CLI adapter starts with: cwd, command on PATH, version. */
export async function commonCliChecks(options: CommonCliChecksOptions): Promise<{ checks: EnvironmentCheck[]; resolved: ResolvedCommand | null; version: string | null }> {
  const checks: EnvironmentCheck[] = [checkCwd(options.cwd, { create: true })];
  const { check, resolved } = checkCommand(options.command, options.env, options.installHint);
  checks.push(check);
  let version: string | null = null;
  if (resolved) {
    const v = await checkVersion(resolved, options.env, options.versionArgs);
    version = v.version ?? null;
    const { version: _drop, ...versionCheck } = v;
    checks.push(versionCheck);
  }
  return { checks, resolved, version };
}
