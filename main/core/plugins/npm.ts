import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { commandArgs, killTree, resolveCommand, type ResolvedCommand } from '@service/adapter-utils';

/** How long `npm install` may take before it is killed (override: `plugins.timeoutMs`). */
export const DEFAULT_INSTALL_TIMEOUT_MS = 120_000;

export interface NpmOptions {
  /** Path to npm's `npm-cli.js`; found next to this Node, or through `npm` on PATH, when absent. */
  npmCli?: string;
  /** Extra arguments for every npm call (e.g. `--offline`, `--registry=<url>`). */
  extraArgs?: readonly string[];
  timeoutMs?: number;
}

export interface NpmResult {
  ok: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** The last few kilobytes of npm's output, for the error message. */
  output: string;
}

/** How to start npm without a shell. */
function npmCommand(npmCli?: string): ResolvedCommand {
  if (npmCli) {
    // A configured npm is used or refused, never silently replaced by another one.
    if (!existsSync(npmCli)) throw new Error(`the configured npm-cli.js ${npmCli} does not exist`);
    return { path: npmCli, command: process.execPath, prefixArgs: [npmCli] };
  }
  const candidates = [
    // POSIX layout: <prefix>/bin/node and <prefix>/lib/node_modules/npm.
    path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
    // Windows layout: node.exe beside node_modules\npm.
    path.join(path.dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
  ];
  for (const file of candidates) {
    if (existsSync(file)) return { path: file, command: process.execPath, prefixArgs: [file] };
  }
  // npm on PATH: a link to npm-cli.js is run with our Node; a Windows npm.cmd shim is unwrapped
  // into the script it starts (resolveCommand), since a .cmd cannot be spawned without a shell.
  const resolved = resolveCommand('npm');
  if (!resolved) throw new Error('npm was not found (neither next to this Node nor on PATH); it is needed to install adapter packages');
  const real = realpathSync(resolved.path);
  if (!resolved.viaCmd && /\.(c|m)?js$/.test(real)) return { path: real, command: process.execPath, prefixArgs: [real] };
  return resolved;
}

/**
 * What `npm run …` adds to its scripts' environment about the project it ran in. A server started
 * through `npm run serve` inherits them, and `npm_config_local_prefix` and friends would steer the
 * plugin install towards the app's own tree. The user's own npm settings (`npm_config_registry`,
 * proxies, a cache) are kept.
 */
const RUN_SCRIPT_VARS = /^npm_(package_|lifecycle_|command$|execpath$|node_execpath$|config_(local_prefix|prefix|global_prefix|argv|user_agent)$)/i;

function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!RUN_SCRIPT_VARS.test(k)) env[k] = v;
  // Under Electron, process.execPath is the app: this makes it behave as plain Node for npm.
  env.ELECTRON_RUN_AS_NODE = '1';
  return env;
}

/**
 * Runs one npm command in `prefix` as a child process: no shell (a package spec is an argument,
 * never shell text), no audit or funding lookups, and killed with its whole tree after the timeout.
 */
export function runNpm(prefix: string, args: readonly string[], options: NpmOptions = {}): Promise<NpmResult> {
  const npm = npmCommand(options.npmCli);
  const timeoutMs = options.timeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS;
  const npmArgs = [...args, '--prefix', prefix, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=error', ...(options.extraArgs ?? [])];
  return new Promise((resolve, reject) => {
    const child = spawn(npm.command, commandArgs(npm, npmArgs), {
      ...(npm.viaCmd ? { windowsVerbatimArguments: true } : {}),
      cwd: prefix,
      env: npmEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    let output = '';
    const keep = (b: Buffer) => {
      output = (output + b.toString('utf8')).slice(-8192);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) killTree(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0 && !timedOut, exitCode: code, timedOut, output: output.trim() });
    });
  });
}
