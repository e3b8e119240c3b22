import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  commandArgs,
  commonCliChecks,
  environmentResult,
  runChildProcess,
  splitLines,
  type EnvironmentCheck,
  type EnvironmentTestContext,
  type EnvironmentTestResult,
  type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { readConfig } from './config.js';
import { foldLine, newStreamState } from './parse.js';
import { classifyError, LOGIN_HINT } from './classify.js';
import { ptyAvailable } from './pty-host.js';

export const TYPE = 'vendor_i_local';
const INSTALL_HINT = 'Install the Amp CLI (npm install -g @sourcegraph/amp, see ampcode.com), or set command to its path.';

/** Where `amp login` keeps its credentials (XDG data home). */
function storedLoginFile(env: Record<string, string | undefined>): string {
  const dataHome = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), '.local', 'share');
  return path.join(dataHome, 'amp', 'secrets.json');
}

/** AMP_API_KEY wins over a stored login: say so, since the bill then goes to that key's account. */
function authCheck(env: Record<string, string | undefined>): EnvironmentCheck {
  const hasKey = Boolean(env.AMP_API_KEY);
  const loginFile = storedLoginFile(env);
  const hasLogin = existsSync(loginFile);
  if (hasKey && hasLogin) {
    return { level: 'warn', code: 'api_key_overrides_login', message: `AMP_API_KEY is set and overrides the login stored in ${loginFile}`, hint: 'Remove AMP_API_KEY from the agent\'s env to use your `amp login` account.' };
  }
  if (hasKey) return { level: 'info', code: 'api_key_set', message: 'AMP_API_KEY is set; Amp authenticates with it' };
  if (hasLogin) return { level: 'info', code: 'login_found', message: `A stored Amp login was found (${loginFile})` };
  return { level: 'warn', code: 'auth_not_found', message: 'Neither AMP_API_KEY nor a stored `amp login` was found', hint: LOGIN_HINT };
}

/** The optional hello probe: one short prompt, to prove the CLI can reach its service. */
async function helloProbe(resolved: ResolvedCommand, cwd: string, env: Record<string, string>): Promise<EnvironmentCheck> {
  let out = '';
  const run = await runChildProcess(resolved.command, {
    args: commandArgs(resolved, ['--execute', 'Reply with the single word hello.', '--stream-json']),
    cwd,
    env,
    timeout: 60_000,
    graceMs: 2000,
    onStdout: (c) => (out += c),
    onStderr: (c) => (out += c),
    ...(resolved.viaCmd ? { windowsVerbatimArguments: true } : {}),
  });
  const state = newStreamState();
  for (const line of splitLines(out)) foldLine(state, line);
  const error = classifyError(state, new Date());
  if (error?.code === 'login_required') return { level: 'error', code: 'login_required', message: error.message, hint: LOGIN_HINT };
  if (run.exitCode === 0 && state.result && !state.result.isError) return { level: 'info', code: 'hello_probe_ok', message: `Amp answered: ${state.result.text.slice(0, 200)}` };
  const said = state.result?.text || state.plainLines.slice(-1)[0] || `exit ${run.exitCode ?? run.signal}`;
  return { level: 'warn', code: 'hello_probe_failed', message: `The hello probe did not succeed: ${said.slice(0, 300)}` };
}

/** Spec 2.9 checks: cwd, the CLI and its version, authentication, the terminal, an optional probe. */
export async function testAmpEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const cfg = readConfig(ctx.config);
  const env = probeEnv(ctx);
  const { checks, resolved } = await commonCliChecks({ command: cfg.command, cwd: cfg.cwd, env, installHint: INSTALL_HINT });
  checks.push(authCheck(env));
  if (cfg.pty && !ptyAvailable()) {
    checks.push({ level: 'warn', code: 'pty_unavailable', message: 'node-pty could not be loaded; Amp will run with pipes', hint: 'Install node-pty next to Headcount, or set pty to false.' });
  }
  const cwdOk = !checks.some((c) => c.level === 'error');
  if (cfg.helloProbe && resolved && cwdOk) checks.push(await helloProbe(resolved, cfg.cwd, await credentialEnv(ctx, env)));
  return environmentResult(TYPE, checks);
}
