/**
 * The one place an agent process's environment is assembled. It is built from named parts and never
 * copied from the server's own environment: the server holds SERVICE_BOARD_TOKEN, SERVICE_HOME and
 * whatever else it was started with, and an agent that saw them could act as the board.
 */

/** What every agent process gets from the server's environment, on every platform. */
export const BASE_ENV_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
] as const;

/** Names Windows programs cannot start without (the system root, the shell, the user's profile folders). */
export const WINDOWS_ENV_NAMES = ['SystemRoot', 'SYSTEMROOT', 'SystemDrive', 'windir', 'COMSPEC', 'ComSpec', 'PATHEXT', 'Path', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE', 'USERNAME', 'HOMEDRIVE', 'HOMEPATH', 'TEMP', 'TMP', 'ProgramData', 'ProgramFiles', 'ProgramFiles(x86)', 'CommonProgramFiles', 'NUMBER_OF_PROCESSORS', 'PROCESSOR_ARCHITECTURE', 'OS'] as const;

/** Names macOS tools expect from a login session (temp folder and the user's session id). */
export const DARWIN_ENV_NAMES = ['__CF_USER_TEXT_ENCODING'] as const;

/**
 * Names an agent never gets, whatever `inheritEnv` or the adapter's `env` says: the board's
 * credential, the data home, the master key and the server's own settings. SERVICE_* run variables
 * are set by the run itself (see `buildServiceEnv`), after this filter.
 */
const NEVER = /^(SERVICE_BOARD_TOKEN|SERVICE_HOME|SERVICE_MASTER_KEY.*|SERVICE_.*)$/;

/** Matches the names `inheritEnv` may not list (the same rule as above, for config validation). */
export function isForbiddenInheritName(name: string): boolean {
  return NEVER.test(name);
}

export interface AgentEnvInput {
  /** The environment the names are read from (the server's `process.env`). */
  source: Record<string, string | undefined>;
  /** Extra names the board listed in the agent's `inheritEnv`. */
  inherit?: readonly string[];
  /** Set last, verbatim: the run's SERVICE_* variables and the adapter configuration's resolved `env`. */
  extra?: Record<string, string>;
  platform?: NodeJS.Platform;
}

function allowedNames(platform: NodeJS.Platform): string[] {
  return [...BASE_ENV_NAMES, ...(platform === 'win32' ? WINDOWS_ENV_NAMES : []), ...(platform === 'darwin' ? DARWIN_ENV_NAMES : [])];
}

/**
 * The environment of an agent process: the fixed allowlist (plus `LC_*`), then the `inheritEnv`
 * names, each read from `source`, then `extra`. Server-only names are dropped from the first two
 * parts; `extra` is what the run and the board's own configuration chose to set.
 */
export function buildAgentEnv(input: AgentEnvInput): Record<string, string> {
  const platform = input.platform ?? process.platform;
  const env: Record<string, string> = {};
  const take = (name: string) => {
    const value = input.source[name];
    if (typeof value === 'string' && !NEVER.test(name)) env[name] = value;
  };
  for (const name of allowedNames(platform)) take(name);
  for (const name of Object.keys(input.source)) if (name.startsWith('LC_')) take(name);
  // Windows names are case-insensitive: a listed name matches however the server spells it.
  const lookup = platform === 'win32' ? new Map(Object.keys(input.source).map((k) => [k.toUpperCase(), k])) : null;
  for (const name of input.inherit ?? []) take(lookup?.get(name.toUpperCase()) ?? name);
  return { ...env, ...(input.extra ?? {}) };
}
