import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandArgs, commonCliChecks, environmentResult, runChildProcess, LineSplitter, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { VendorDLocalConfig } from './config.js';
import { OpenCodeStreamState } from './parse.js';
import { classifyOpenCodeError } from './errors.js';

export const INSTALL_HINT = 'Install OpenCode: npm install -g opencode-ai (or set command to its path).';

const PROVIDER_KEYS = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'OPENROUTER_API_KEY', 'GROQ_API_KEY', 'XAI_API_KEY', 'DEEPSEEK_API_KEY'];

/** Which credentials OpenCode has: its own auth store, provider keys in the environment. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const dataHome = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), '.local', 'share');
  const stored = existsSync(path.join(dataHome, 'opencode', 'auth.json'));
  const keys = PROVIDER_KEYS.filter((k) => env[k]);
  if (stored && keys.length) return [{ level: 'warn', code: 'api_key_overrides_login', message: `${keys.join(', ')} set in the environment: it may be used instead of the credentials stored by \`opencode auth login\``, hint: 'Remove the key from the agent env to use the stored login.' }];
  if (stored) return [{ level: 'info', code: 'auth_login', message: 'OpenCode has stored provider credentials (opencode auth login)' }];
  if (keys.length) return [{ level: 'info', code: 'auth_api_key', message: `OpenCode can use ${keys.join(', ')}` }];
  if (env.OPENCODE_CONFIG_CONTENT || env.OPENCODE_CONFIG) return [{ level: 'info', code: 'auth_config', message: 'OpenCode uses the providers of its configuration' }];
  return [{ level: 'warn', code: 'auth_missing', message: 'No OpenCode login and no provider key found (only its free models will work)', hint: 'Sign in: run `opencode auth login` in a terminal, or add a provider key to the agent env as a secret.' }];
}

async function helloProbe(resolved: ResolvedCommand, env: Record<string, string>, cwd: string, model: string | undefined): Promise<EnvironmentCheck> {
  const state = new OpenCodeStreamState();
  const lines = new LineSplitter();
  const args = ['run', '--format', 'json', ...(model ? ['--model', model] : []), '--', 'Reply with the single word: hello'];
  const run = await runChildProcess(resolved.command, {
    args: commandArgs(resolved, args),
    cwd,
    env,
    timeout: 90_000,
    graceMs: 1000,
    onStdout: (c) => lines.push(c).forEach((l) => state.push(l)),
    onStderr: (c) => c.split('\n').forEach((l) => state.push(l)),
  });
  lines.end().forEach((l) => state.push(l));
  const error = classifyOpenCodeError(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (run.exitCode === 0 && state.steps > 0 && !state.errors.length) return { level: 'info', code: 'hello_probe_ok', message: `OpenCode answered: ${state.lastText.slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: state.errorTexts().slice(-2).join(' / ') || `exit ${run.exitCode}` };
}

export async function testOpenCodeEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorDLocalConfig.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : VendorDLocalConfig.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env, installHint: INSTALL_HINT });
  checks.push(...authChecks(env));
  if (config.helloProbe && resolved && !checks.some((c) => c.level === 'error')) checks.push(await helloProbe(resolved, await credentialEnv(ctx, env), cwd, config.model));
  return environmentResult('vendor_d_local', checks);
}
