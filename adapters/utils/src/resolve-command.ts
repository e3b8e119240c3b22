import { readFileSync } from 'node:fs';
import path from 'node:path';
import which from 'which';

/** What to spawn for a configured command: the file found, and how to start it. */
export interface ResolvedCommand {
  /** The file found on PATH (or the path given), absolute. */
  path: string;
  /** The executable to hand to spawn / node-pty. */
  command: string;
  /** Arguments that go before the adapter's own (e.g. the script of a `.cmd` shim). */
  prefixArgs: string[];
  /** Started through `cmd.exe /d /s /c`: spawn with `windowsVerbatimArguments` (see `commandArgs`). */
  viaCmd?: boolean;
}

const isWindowsShim = (file: string) => /\.(cmd|bat)$/i.test(file);

/**
 * Finds `command` the way a shell would — a path as given, else the first match on the PATH of
 * `env` (Windows: every PATHEXT extension) — using the `which` package, and says how to start it.
 *
 * Windows `.cmd`/`.bat` shims (what npm installs for every CLI) cannot be spawned directly, and
 * passing arguments through `cmd.exe` re-parses them (`&`, `|`, `%` and quotes in a prompt would
 * be interpreted). So a shim written by npm's cmd-shim is unwrapped: we run the node script it
 * points to with our own node. Only a shim we cannot read that way goes through
 * `cmd.exe /d /s /c` with every argument quoted for cmd (see `quoteForCmd`). Never a generated
 * shell script.
 */
export function resolveCommand(command: string, env: Record<string, string | undefined> = process.env): ResolvedCommand | null {
  if (!command) return null;
  const pathValue = env.PATH ?? env.Path ?? process.env.PATH ?? '';
  const found = which.sync(command, { path: pathValue, nothrow: true, ...(env.PATHEXT ? { pathExt: env.PATHEXT } : {}) });
  if (!found) return null;
  const file = path.resolve(found);
  if (!isWindowsShim(file)) return { path: file, command: file, prefixArgs: [] };
  const script = cmdShimTarget(file);
  if (script) return { path: file, command: process.execPath, prefixArgs: [script] };
  return { path: file, command: env.ComSpec ?? process.env.ComSpec ?? 'cmd.exe', prefixArgs: ['/d', '/s', '/c'], viaCmd: true };
}

/**
 * The JavaScript file an npm cmd-shim starts (`"%dp0%\node_modules\x\cli.js" %*`), or null when
 * the shim is not of that form (a native .exe target is returned too: it can be spawned as is).
 */
export function cmdShimTarget(shimPath: string): string | null {
  let text: string;
  try {
    text = readFileSync(shimPath, 'utf8');
  } catch {
    return null;
  }
  const match = /"%(?:~)?dp0%\\?([^"]+?\.(?:js|cjs|mjs))"/i.exec(text) ?? /"%(?:~)?dp0%\\?([^"]+?\.exe)"/i.exec(text);
  if (!match?.[1]) return null;
  return path.join(path.dirname(shimPath), match[1].replace(/\\/g, path.sep));
}

/**
 * Quotes one argument for `cmd.exe /d /s /c`: the CommandLineToArgvW rules (backslashes before a
 * quote doubled, quotes escaped), then every cmd metacharacter caret-escaped so cmd passes it on.
 */
export function quoteForCmd(arg: string): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  return quoted.replace(/[()%!^"<>&|]/g, '^$&');
}

/**
 * The argument list for spawning a resolved command. Through cmd.exe the shim and its arguments
 * become one line wrapped in outer quotes, which `/s` strips; it must reach cmd verbatim.
 */
export function commandArgs(resolved: ResolvedCommand, args: string[]): string[] {
  if (resolved.viaCmd) return [...resolved.prefixArgs, `"${[resolved.path, ...args].map(quoteForCmd).join(' ')}"`];
  return [...resolved.prefixArgs, ...args];
}
