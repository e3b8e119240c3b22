import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
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

export async function testQwenEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_g_local',
    schema: VendorGLocalConfig,
    installHint: INSTALL_HINT,
    probeState: () => new QwenStreamState(),
    checks: ({ env }) => authChecks(env),
    helloProbe: (config) => ({
      name: 'Qwen',
      args: ['--output-format', 'stream-json', '--max-session-turns', '1', ...(config.model ? ['--model', config.model] : []), ...(config.authType ? ['--auth-type', config.authType] : [])],
      timeoutMs: 90_000,
      splitStderr: true,
      classify: (s) => classifyQwenError(s),
      answer: (s, exitCode) => (exitCode === 0 && s.result && !s.result.isError && !s.apiError() ? s.result.text : null),
      failure: (s) => s.apiError() || s.result?.text || s.plainLines.slice(-2).join(' / '),
    }),
  });
}
