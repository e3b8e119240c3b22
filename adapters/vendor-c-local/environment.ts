import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandArgs, commonCliChecks, environmentResult, runChildProcess, LineSplitter, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { VendorCLocalConfig } from './config.js';
import { GeminiStreamState } from './parse.js';
import { classifyGeminiError } from './errors.js';

export const INSTALL_HINT = 'Install the Gemini CLI: npm install -g @google/gemini-cli (or set command to its path).';

function selectedAuthType(home: string): string | null {
  try {
    const settings = JSON.parse(readFileSync(path.join(home, '.gemini', 'settings.json'), 'utf8')) as { security?: { auth?: { selectedType?: unknown } } };
    const t = settings.security?.auth?.selectedType;
    return typeof t === 'string' ? t : null;
  } catch {
    return null;
  }
}

/** Which credential the Gemini CLI will use: a Google login, an API key, Vertex AI. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const checks: EnvironmentCheck[] = [];
  const home = env.HOME || os.homedir();
  const loggedIn = existsSync(path.join(home, '.gemini', 'oauth_creds.json'));
  const selected = selectedAuthType(home);
  if (env.GEMINI_API_KEY) {
    checks.push(
      loggedIn
        ? { level: 'warn', code: 'api_key_overrides_login', message: 'GEMINI_API_KEY is set: it may be used instead of the Google login, billed to that key', hint: 'Remove GEMINI_API_KEY from the agent env to use the Google login.' }
        : { level: 'info', code: 'auth_api_key', message: 'The Gemini CLI authenticates with GEMINI_API_KEY' },
    );
  } else if (env.GOOGLE_GENAI_USE_VERTEXAI === 'true') {
    checks.push({ level: 'info', code: 'auth_vertex', message: 'The Gemini CLI uses Vertex AI' });
  } else if (loggedIn) {
    checks.push({ level: 'info', code: 'auth_login', message: 'The Gemini CLI is logged in with Google' });
  } else {
    checks.push({ level: 'warn', code: 'auth_missing', message: 'No Google login and no GEMINI_API_KEY found', hint: 'Sign in: run `gemini` in a terminal and choose "Login with Google", or add GEMINI_API_KEY to the agent env as a secret.' });
  }
  // With a base URL the CLI infers a "gateway" auth type it then refuses, unless settings select one.
  if (env.GOOGLE_GEMINI_BASE_URL) {
    checks.push(
      selected
        ? { level: 'info', code: 'custom_base_url', message: `Requests go to GOOGLE_GEMINI_BASE_URL=${env.GOOGLE_GEMINI_BASE_URL}` }
        : { level: 'warn', code: 'base_url_needs_auth_type', message: 'GOOGLE_GEMINI_BASE_URL is set but ~/.gemini/settings.json selects no auth type: the CLI will stop with "Invalid auth method selected"', hint: 'Set security.auth.selectedType to "gemini-api-key" in ~/.gemini/settings.json.' },
    );
  }
  return checks;
}

async function helloProbe(resolved: ResolvedCommand, env: Record<string, string>, cwd: string, model: string | undefined): Promise<EnvironmentCheck> {
  const state = new GeminiStreamState();
  const lines = new LineSplitter();
  const args = ['--output-format', 'stream-json', '--skip-trust', ...(model ? ['--model', model] : [])];
  const run = await runChildProcess(resolved.command, {
    args: commandArgs(resolved, args),
    cwd,
    env: { ...env, GEMINI_CLI_NO_RELAUNCH: 'true' },
    stdin: 'Reply with the single word: hello',
    timeout: 90_000,
    graceMs: 1000,
    onStdout: (c) => lines.push(c).forEach((l) => state.push(l)),
    onStderr: (c) => c.split('\n').forEach((l) => state.push(l)),
  });
  lines.end().forEach((l) => state.push(l));
  const error = classifyGeminiError(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (run.exitCode === 0 && state.result?.status === 'success') return { level: 'info', code: 'hello_probe_ok', message: `Gemini answered: ${state.assistantText.slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: state.result?.errorMessage || state.plainLines.slice(-2).join(' / ') || `exit ${run.exitCode}` };
}

export async function testGeminiEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorCLocalConfig.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : VendorCLocalConfig.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env, installHint: INSTALL_HINT });
  if (ctx.config.enableExperimental !== true) {
    checks.push({ level: 'warn', code: 'experimental', message: 'vendor_c_local is experimental: agents need adapterConfig.enableExperimental = true', hint: 'Add "enableExperimental": true to the agent configuration.' });
  }
  checks.push(...authChecks(env));
  if (config.helloProbe && resolved && !checks.some((c) => c.level === 'error')) checks.push(await helloProbe(resolved, await credentialEnv(ctx, env), cwd, config.model));
  return environmentResult('vendor_c_local', checks);
}
