import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandArgs, commonCliChecks, environmentResult, runChildProcess, LineSplitter, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { VendorGLocalConfig } from './config.js';
import { QwenStreamState } from './parse.js';
import { classifyQwenError } from './errors.js';

export const INSTALL_HINT = 'Install Qwen Code: npm install -g @qwen-code/qwen-code (or set command to its path).';

/** Which credential Qwen Code will use: an OpenAI-compatible key, or its own OAuth login. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const checks: EnvironmentCheck[] = [];
  const oauth = existsSync(path.join(env.HOME || os.homedir(), '.qwen', 'oauth_creds.json'));
  if (env.OPENAI_API_KEY) {
    checks.push(
      oauth
        ? { level: 'warn', code: 'api_key_overrides_login', message: 'OPENAI_API_KEY is set: with --auth-type openai it is used instead of the Qwen OAuth login', hint: 'Remove OPENAI_API_KEY from the agent env to use the Qwen login.' }
        : { level: 'info', code: 'auth_api_key', message: `Qwen Code authenticates with OPENAI_API_KEY${env.OPENAI_BASE_URL ? ` at ${env.OPENAI_BASE_URL}` : ''}` },
    );
  } else if (oauth) {
    checks.push({ level: 'info', code: 'auth_login', message: 'Qwen Code is logged in with Qwen OAuth' });
  } else {
    checks.push({ level: 'warn', code: 'auth_missing', message: 'No Qwen login and no OPENAI_API_KEY found', hint: 'Sign in: run `qwen` in a terminal and type /auth, or add OPENAI_API_KEY (and OPENAI_BASE_URL, OPENAI_MODEL) to the agent env.' });
  }
  return checks;
}

async function helloProbe(resolved: ResolvedCommand, env: Record<string, string>, cwd: string, config: VendorGLocalConfig): Promise<EnvironmentCheck> {
  const state = new QwenStreamState();
  const lines = new LineSplitter();
  const args = ['--output-format', 'stream-json', '--max-session-turns', '1', ...(config.model ? ['--model', config.model] : []), ...(config.authType ? ['--auth-type', config.authType] : [])];
  const run = await runChildProcess(resolved.command, {
    args: commandArgs(resolved, args),
    cwd,
    env,
    stdin: 'Reply with the single word: hello',
    timeout: 90_000,
    graceMs: 1000,
    onStdout: (c) => lines.push(c).forEach((l) => state.push(l)),
    onStderr: (c) => c.split('\n').forEach((l) => state.push(l)),
  });
  lines.end().forEach((l) => state.push(l));
  const error = classifyQwenError(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (run.exitCode === 0 && state.result && !state.result.isError && !state.apiError()) return { level: 'info', code: 'hello_probe_ok', message: `Qwen answered: ${state.result.text.slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: state.apiError() || state.result?.text || state.plainLines.slice(-2).join(' / ') || `exit ${run.exitCode}` };
}

export async function testQwenEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorGLocalConfig.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : VendorGLocalConfig.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env, installHint: INSTALL_HINT });
  checks.push(...authChecks(env));
  if (config.helloProbe && resolved && !checks.some((c) => c.level === 'error')) checks.push(await helloProbe(resolved, await credentialEnv(ctx, env), cwd, config));
  return environmentResult('vendor_g_local', checks);
}
