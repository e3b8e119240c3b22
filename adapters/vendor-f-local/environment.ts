import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LineSplitter, commandArgs, commonCliChecks, environmentResult, runChildProcess, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { VendorFLocalConfig } from './config.js';
import { piAgentDir } from './detect-model.js';
import { PiStreamState } from './parse.js';
import { classifyPiError } from './errors.js';

export const INSTALL_HINT = 'Install pi: npm install -g @mariozechner/pi-coding-agent (or set command to its path).';

/** Environment variables pi reads a provider key from (its --help lists them). */
const KEY_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN', 'OPENAI_API_KEY', 'AZURE_OPENAI_API_KEY', 'GEMINI_API_KEY', 'DEEPSEEK_API_KEY', 'GROQ_API_KEY', 'XAI_API_KEY', 'OPENROUTER_API_KEY', 'MISTRAL_API_KEY', 'CEREBRAS_API_KEY', 'ZAI_API_KEY'];

function customProviders(agentDir: string): string[] {
  try {
    const models = JSON.parse(readFileSync(path.join(agentDir, 'models.json'), 'utf8')) as { providers?: unknown };
    return models.providers && typeof models.providers === 'object' ? Object.keys(models.providers) : [];
  } catch {
    return [];
  }
}

/** Which credentials pi can use: key variables, its /login store, custom providers. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const agentDir = piAgentDir(env);
  const keys = KEY_VARS.filter((k) => env[k]);
  const loggedIn = existsSync(path.join(agentDir, 'auth.json'));
  const custom = customProviders(agentDir);
  const checks: EnvironmentCheck[] = [];
  if (keys.length) checks.push({ level: 'info', code: 'auth_env', message: `pi can use ${keys.join(', ')}` });
  if (loggedIn) checks.push({ level: 'info', code: 'auth_login', message: `pi has stored credentials (${path.join(agentDir, 'auth.json')})` });
  if (custom.length) checks.push({ level: 'info', code: 'custom_providers', message: `Custom providers in models.json: ${custom.join(', ')}` });
  if (!keys.length && !loggedIn && !custom.length) {
    checks.push({ level: 'warn', code: 'auth_missing', message: 'No provider API key, no pi login and no custom provider found', hint: 'Sign in: run `pi` in a terminal and type /login, or add a provider key (e.g. ANTHROPIC_API_KEY) to the agent env as a secret.' });
  }
  return checks;
}

/** The optional hello probe: one real prompt, no tools, no session kept. */
async function helloProbe(resolved: ResolvedCommand, env: Record<string, string>, cwd: string, config: VendorFLocalConfig): Promise<EnvironmentCheck> {
  const state = new PiStreamState();
  const lines = new LineSplitter();
  const args = ['-p', '--mode', 'json', '--no-session', '--no-tools', ...(config.provider ? ['--provider', config.provider] : []), ...(config.model ? ['--model', config.model] : [])];
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
  const error = classifyPiError(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (state.ended && !state.failed) return { level: 'info', code: 'hello_probe_ok', message: `pi answered: ${state.lastAssistantText.slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: state.errorMessages.at(-1) || state.plainLines.slice(-2).join(' / ') || `exit ${run.exitCode}` };
}

export async function testPiEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorFLocalConfig.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : VendorFLocalConfig.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const runEnv = { PI_OFFLINE: '1', ...env };
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env: runEnv, installHint: INSTALL_HINT });
  checks.push(...authChecks(env));
  if (config.helloProbe && resolved && !checks.some((c) => c.level === 'error')) checks.push(await helloProbe(resolved, await credentialEnv(ctx, runEnv), cwd, config));
  return environmentResult('vendor_f_local', checks);
}
