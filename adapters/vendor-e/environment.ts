import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cliEnvironmentTest, type EnvironmentCheck, type EnvironmentTestContext, type EnvironmentTestResult } from '@service/adapter-utils';
import { VendorEConfig } from './config.js';
import { CursorStreamState } from './parse.js';
import { classifyCursorError } from './errors.js';

export const INSTALL_HINT = 'Install the Cursor CLI: curl https://cursor.com/install -fsS | bash (it is not on npm), then make sure ~/.local/bin is on PATH or set command to its path.';

/** Which credential the Cursor CLI will use. */
function authChecks(env: Record<string, string | undefined>): EnvironmentCheck[] {
  const home = env.HOME || os.homedir();
  const stored = [path.join(home, '.config', 'cursor', 'auth.json'), path.join(env.CURSOR_CONFIG_DIR || path.join(home, '.cursor'), 'auth.json')].find((f) => existsSync(f));
  if (env.CURSOR_API_KEY) return [{ level: 'info', code: 'auth_api_key', message: 'The Cursor CLI authenticates with CURSOR_API_KEY' }];
  if (stored) return [{ level: 'info', code: 'auth_login', message: `The Cursor CLI is logged in (${stored})` }];
  return [{ level: 'warn', code: 'auth_missing', message: 'No Cursor login and no CURSOR_API_KEY found', hint: 'Sign in: run `cursor-agent login` in a terminal, or add CURSOR_API_KEY to the agent env as a secret.' }];
}

/** The optional hello probe: one real prompt in ask mode (read-only), with pipes. */
export async function testCursorEnvironment(ctx: EnvironmentTestContext): Promise<EnvironmentTestResult> {
  return cliEnvironmentTest(ctx, {
    type: 'vendor_e',
    schema: VendorEConfig,
    installHint: INSTALL_HINT,
    probeState: () => new CursorStreamState(),
    checks: ({ env }) => authChecks(env),
    // Read-only (`--mode ask`): the probe must not change the workspace.
    helloProbe: (config, cwd) => ({
      name: 'Cursor',
      args: ['-p', '--output-format', 'stream-json', '--workspace', cwd, '--mode', 'ask', ...(config.model ? ['--model', config.model] : [])],
      classify: (s) => classifyCursorError(s),
      answer: (s, exitCode) => (exitCode === 0 && s.result && !s.result.isError ? s.result.text || s.lastAssistantText : null),
      failure: (s) => s.result?.text || s.plainLines.slice(-2).join(' / '),
    }),
  });
}
