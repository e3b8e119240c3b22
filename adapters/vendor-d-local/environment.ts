import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELLO_PROMPT, cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
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

export async function testOpenCodeEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_d_local',
    schema: VendorDLocalConfig,
    installHint: INSTALL_HINT,
    probeState: () => new OpenCodeStreamState(),
    checks: ({ env }) => authChecks(env),
    // The prompt is the message argument: nothing on stdin.
    helloProbe: (config) => ({
      name: 'OpenCode',
      args: ['run', '--format', 'json', ...(config.model ? ['--model', config.model] : []), '--', HELLO_PROMPT],
      stdin: null,
      timeoutMs: 90_000,
      splitStderr: true,
      classify: (s) => classifyOpenCodeError(s),
      answer: (s, exitCode) => (exitCode === 0 && s.steps > 0 && !s.errors.length ? s.lastText : null),
      failure: (s) => s.errorTexts().slice(-2).join(' / '),
    }),
  });
}
