import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
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
export async function testPiEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_f_local',
    schema: VendorFLocalConfig,
    installHint: INSTALL_HINT,
    extraEnv: { PI_OFFLINE: '1' },
    probeState: () => new PiStreamState(),
    checks: ({ env }) => authChecks(env),
    // No session file and no tools: the probe leaves nothing behind.
    helloProbe: (config) => ({
      name: 'pi',
      args: ['-p', '--mode', 'json', '--no-session', '--no-tools', ...(config.provider ? ['--provider', config.provider] : []), ...(config.model ? ['--model', config.model] : [])],
      classify: (s) => classifyPiError(s),
      answer: (s) => (s.ended && !s.failed ? s.lastAssistantText : null),
      failure: (s) => s.errorMessages.at(-1) || s.plainLines.slice(-2).join(' / '),
    }),
  });
}
