import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { commandArgs, commonCliChecks, environmentResult, runChildProcess, LineSplitter, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand, probeEnv, credentialEnv } from '@service/adapter-utils';
import { VendorALocalConfig } from './config.js';
import { ClaudeStreamState } from './parse.js';
import { classifyClaudeError } from './errors.js';

export const INSTALL_HINT = 'Install Claude Code: npm install -g @anthropic-ai/claude-code (or set command to its path).';

/** Which credential Claude Code will use, as a founder needs to know it. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const checks: EnvironmentCheck[] = [];
  const configDir = env.CLAUDE_CONFIG_DIR || path.join(env.HOME || os.homedir(), '.claude');
  const loggedIn = existsSync(path.join(configDir, '.credentials.json'));
  if (env.ANTHROPIC_API_KEY) {
    checks.push(
      loggedIn
        ? { level: 'warn', code: 'api_key_overrides_login', message: 'ANTHROPIC_API_KEY is set: it overrides the Claude subscription login, and usage is billed to that API key', hint: 'Remove ANTHROPIC_API_KEY from the agent env to use the subscription.' }
        : { level: 'info', code: 'auth_api_key', message: 'Claude Code authenticates with ANTHROPIC_API_KEY' },
    );
  } else if (env.ANTHROPIC_AUTH_TOKEN) {
    checks.push({ level: 'info', code: 'auth_token', message: 'Claude Code authenticates with ANTHROPIC_AUTH_TOKEN' });
  } else if (loggedIn) {
    checks.push({ level: 'info', code: 'auth_login', message: `Claude Code is logged in (${configDir})` });
  } else {
    checks.push({ level: 'warn', code: 'auth_missing', message: 'No Claude login and no ANTHROPIC_API_KEY found', hint: 'Sign in: run `claude` in a terminal and type /login (or `claude setup-token`), or add ANTHROPIC_API_KEY to the agent env as a secret.' });
  }
  if (env.ANTHROPIC_BASE_URL) checks.push({ level: 'info', code: 'custom_base_url', message: `Requests go to ANTHROPIC_BASE_URL=${env.ANTHROPIC_BASE_URL}` });
  return checks;
}

/** The optional hello probe: one real prompt, no tools, one turn. */
async function helloProbe(resolved: ResolvedCommand, env: Record<string, string>, cwd: string, model: string | undefined): Promise<EnvironmentCheck> {
  const state = new ClaudeStreamState();
  const lines = new LineSplitter();
  const args = ['-p', '--output-format', 'stream-json', '--verbose', '--max-turns', '1', ...(model ? ['--model', model] : [])];
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
  const error = classifyClaudeError(state);
  if (error) return { level: 'error', code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  if (run.exitCode === 0 && state.result && !state.result.isError) return { level: 'info', code: 'hello_probe_ok', message: `Claude answered: ${state.result.text.slice(0, 200)}` };
  return { level: 'error', code: 'hello_probe_failed', message: state.result?.text || state.plainLines.slice(-2).join(' / ') || `exit ${run.exitCode}` };
}

export async function testClaudeEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  const parsed = VendorALocalConfig.safeParse(ctx.config);
  const config = parsed.success ? parsed.data : VendorALocalConfig.parse({});
  const env = probeEnv(ctx);
  const cwd = typeof ctx.config.cwd === 'string' ? ctx.config.cwd : os.tmpdir();
  const { checks, resolved } = await commonCliChecks({ command: config.command, cwd, env, installHint: INSTALL_HINT });
  checks.push(...authChecks(env));
  if (config.helloProbe && resolved && !checks.some((c) => c.level === 'error')) checks.push(await helloProbe(resolved, await credentialEnv(ctx, env), cwd, config.model));
  return environmentResult('vendor_a_local', checks);
}
