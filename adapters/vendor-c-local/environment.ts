import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
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

export async function testGeminiEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_c_local',
    schema: VendorCLocalConfig,
    installHint: INSTALL_HINT,
    probeState: () => new GeminiStreamState(),
    checks: ({ env }) => [
      ...(ctx.config.enableExperimental !== true
        ? [{ level: 'warn' as const, code: 'experimental', message: 'vendor_c_local is experimental: agents need adapterConfig.enableExperimental = true', hint: 'Add "enableExperimental": true to the agent configuration.' }]
        : []),
      ...authChecks(env),
    ],
    helloProbe: (config) => ({
      name: 'Gemini',
      args: ['--output-format', 'stream-json', '--skip-trust', ...(config.model ? ['--model', config.model] : [])],
      env: { GEMINI_CLI_NO_RELAUNCH: 'true' },
      timeoutMs: 90_000,
      splitStderr: true,
      classify: (s) => classifyGeminiError(s),
      answer: (s, exitCode) => (exitCode === 0 && s.result?.status === 'success' ? s.assistantText : null),
      failure: (s) => s.result?.errorMessage || s.plainLines.slice(-2).join(' / '),
    }),
  });
}
