import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LineSplitter, commandArgs, commonCliChecks, environmentResult, runChildProcess, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { VendorEConfig } from './config.js';
import { CursorStreamState } from './parse.js';
import { classifyCursorError } from './errors.js';

export const INSTALL_HINT = 'Install the Cursor CLI: curl https://cursor.com/install -fsS | bash (it is not on npm), then make sure ~/.local/bin is on PATH or set command to its path.';

/** Which credential the Cursor CLI will use. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const home = env.HOME || os.homedir();
  const stored = [path.join(home, '.config', 'cursor', 'auth.json'), path.join(env.CURSOR_CONFIG_DIR || path.join(home, '.cursor'), 'auth.json')].find((f) => existsSync(f));
  if (env.CURSOR_API_KEY) return [{ level: 'info', code: 'auth_api_key', message: 'The Cursor CLI authenticates with CURSOR_API_KEY' }];
  if (stored) return [{ level: 'info', code: 'auth_login', message: `The Cursor CLI is logged in (${stored})` }];
  return [{ level: 'warn', code: 'auth_missing', message: 'No Cursor login and no CURSOR_API_KEY found', hint: 'Sign in: run `cursor-agent login` in a terminal, or add CURSOR_API_KEY to the agent env as a secret.' }];
}

/** The optional hello probe: one real prompt in ask mode (read-only), with pipes. */
async function helloProbe(resolved: ResolvedCommand, env: Record<string, string>, cwd: string, config: VendorEConfig): Promise<EnvironmentCheck> {
  const state = new CursorStreamState();
  const lines = new LineSplitter();
  const args = ['-p', '--output-format', 'stream-json', '--workspace', cwd, '--mode', 'ask', ...(config.model ? ['--model', config.model] : [])];
  const run = await runChildProcess(resolved.command, {
    args: commandArgs(resolved, args),
    cwd,
    env,
    stdin: 'Reply with the single word: hello',
    timeout: 60_000,
    graceMs: 1000,
    onStdout: (c) => lines.push(c).forEach((l) => state.push(l)),
    onStderr: (c) => void state.push(c),
  });
  lines.end().forEach((l) => state.push(l));
  const error = classifyCursorError(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (run.exitCode === 0 && state.result && !state.result.isError) return { level: 'info', code: 'hello_probe_ok', message: `Cursor answered: ${(state.result.text || state.lastAssistantText).slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: state.result?.text || state.plainLines.slice(-2).join(' / ') || `exit ${run.exitCode}` };
}

export async function testCursorEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorEConfig.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : VendorEConfig.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env, installHint: INSTALL_HINT });
  checks.push(...authChecks(env));
  if (config.helloProbe && resolved && !checks.some((c) => c.level === 'error')) checks.push(await helloProbe(resolved, await credentialEnv(ctx, env), cwd, config));
  return environmentResult('vendor_e', checks);
}
