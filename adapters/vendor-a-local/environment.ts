import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
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

export async function testClaudeEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_a_local',
    schema: VendorALocalConfig,
    installHint: INSTALL_HINT,
    probeState: () => new ClaudeStreamState(),
    checks: ({ env }) => authChecks(env),
    // One real prompt, no tools, one turn.
    helloProbe: (config) => ({
      name: 'Claude',
      args: ['-p', '--output-format', 'stream-json', '--verbose', '--max-turns', '1', ...(config.model ? ['--model', config.model] : [])],
      classify: (s) => classifyClaudeError(s),
      answer: (s, exitCode) => (exitCode === 0 && s.result && !s.result.isError ? s.result.text : null),
      failure: (s) => s.result?.text || s.plainLines.slice(-2).join(' / '),
    }),
  });
}
