import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { captureOutput, cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult, type ResolvedCommand } from '@service/adapter-utils';
import { VendorBLocalConfig } from './config.js';
import { CodexStreamState } from './parse.js';
import { classifyCodexError } from './errors.js';
import { readCodexConfig } from './detect-model.js';

export const INSTALL_HINT = 'Install Codex: npm install -g @openai/codex (or set command to its path).';

/** Which credential Codex will use: the ChatGPT login (`auth.json`) or an API key. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const checks: EnvironmentCheck[] = [];
  const home = env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex');
  const loggedIn = existsSync(path.join(home, 'auth.json'));
  // Codex refuses to start at all when CODEX_HOME names a folder that does not exist.
  if (env.CODEX_HOME && !existsSync(env.CODEX_HOME)) {
    checks.push({ level: 'error', code: 'codex_home_missing', message: `CODEX_HOME points to ${env.CODEX_HOME}, which does not exist`, hint: 'Create the folder or remove CODEX_HOME from the agent env.' });
  }
  const config = readCodexConfig(env);
  const provider = config?.modelProvider ?? null;
  if (provider && provider !== 'openai') {
    const p = config?.providers[provider];
    checks.push({ level: 'info', code: 'custom_provider', message: `Codex uses the provider "${provider}"${p?.baseUrl ? ` at ${p.baseUrl}` : ''}` });
    if (p?.envKey && !env[p.envKey]) checks.push({ level: 'warn', code: 'auth_missing', message: `${p.envKey} is not set for the provider "${provider}"`, hint: `Add ${p.envKey} to the agent env as a secret.` });
  } else if (env.OPENAI_API_KEY) {
    checks.push(
      loggedIn
        ? { level: 'warn', code: 'api_key_overrides_login', message: 'OPENAI_API_KEY is set: Codex may bill that API key instead of the ChatGPT login', hint: 'Remove OPENAI_API_KEY from the agent env to use the ChatGPT plan.' }
        : { level: 'info', code: 'auth_api_key', message: 'Codex authenticates with OPENAI_API_KEY' },
    );
  } else if (loggedIn) {
    checks.push({ level: 'info', code: 'auth_login', message: `Codex is logged in (${home})` });
  } else {
    checks.push({ level: 'warn', code: 'auth_missing', message: 'No Codex login and no OPENAI_API_KEY found', hint: 'Sign in: run `codex login` in a terminal, or add OPENAI_API_KEY to the agent env as a secret.' });
  }
  return checks;
}

/**
 * Codex prints warnings on stderr before its version (e.g. a CODEX_HOME under /tmp); the version
 * itself is the `codex-cli x.y.z` line of stdout.
 */
async function stdoutVersion(resolved: ResolvedCommand, env: Record<string, string>): Promise<string | null> {
  const out = (await captureOutput(resolved, { args: ['--version'], env, timeoutMs: 15_000 }).catch(() => null))?.out ?? '';
  return out.split('\n').map((l) => l.trim()).find((l) => /\d+\.\d+\.\d+/.test(l)) ?? null;
}

export async function testCodexEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_b_local',
    schema: VendorBLocalConfig,
    installHint: INSTALL_HINT,
    probeState: () => new CodexStreamState(),
    checks: async ({ env, checks, resolved }) => {
      const versionCheck = checks.find((c) => c.code === 'cli_version');
      if (resolved && versionCheck && !/\d+\.\d+\.\d+/.test(versionCheck.message)) {
        const version = await stdoutVersion(resolved, env);
        if (version) versionCheck.message = `Version ${version}`;
      }
      return authChecks(env);
    },
    helloProbe: (config) => ({
      name: 'Codex',
      args: ['exec', '--json', '--skip-git-repo-check', '--sandbox', 'read-only', ...(config.model ? ['--model', config.model] : []), '-'],
      splitStderr: true,
      classify: (s) => classifyCodexError(s),
      answer: (s, exitCode) => (exitCode === 0 && s.turnCompleted ? s.lastAssistantText : null),
      failure: (s) => s.turnFailed || s.plainLines.slice(-2).join(' / '),
    }),
  });
}
