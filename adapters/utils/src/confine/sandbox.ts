import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { proxyEnv } from './network-allowlist.js';

/**
 * The OS sandbox around an agent process: bubblewrap on Linux, Seatbelt (`sandbox-exec`) on macOS,
 * none on Windows. docs/security.md, "What an agent can and cannot reach", says why bubblewrap is
 * called directly rather than through @anthropic-ai/sandbox-runtime.
 */

export interface SandboxPolicy {
  /** Folders the agent must not read at all (the data home): an empty tmpfs is mounted over each. */
  hidden: string[];
  /**
   * The CLI's own state, relative to the agent's HOME (`.claude`, `.claude.json`, `.codex`...):
   * writable. Folders that do not exist yet are created; files are bound only when present.
   */
  stateDirs: string[];
  /** Further writable folders (absolute), e.g. a worktree the run uses besides its cwd. */
  writable?: string[];
  /**
   * Folders the run reads that may lie under /tmp, which the sandbox replaces with a private one:
   * Headcount's own install (its bundled agent scripts) when it lives there. Bound back read-only.
   */
  readable?: string[];
  /** Set by `openRunNetwork` for an agent with a host allowlist: its own network namespace, bridged. */
  network?: NetworkPolicy;
}

/** A run's own network namespace, bridged to the API and an allowlisting proxy (opened by run-network.ts). */
export interface NetworkPolicy {
  apiPort: number;
  proxyPort: number;
  /** Linux: the sockets and the bridge script, in one folder bound read-only into the sandbox. */
  bridge?: {
    dir: string;
    apiSocket: string;
    proxySocket: string;
    script: string;
    /** The Node (or Electron, run as Node) that starts the bridge. */
    nodePath: string;
    electron: boolean;
  };
}

/** What a spawn under the sandbox looks like: the program to start and its arguments. */
export interface SandboxedCommand {
  command: string;
  args: string[];
}

export interface SandboxStatus {
  available: boolean;
  /** `bubblewrap`, `seatbelt`, or null. */
  kind: 'bubblewrap' | 'seatbelt' | null;
  /** Why not, in a sentence, with the install line when there is one. */
  reason?: string;
  installHint?: string;
}

export const BWRAP_INSTALL_LINE = 'sudo apt-get install bubblewrap';

let cached: SandboxStatus | undefined;

/** Whether agents can be sandboxed on this machine (checked once: bwrap must actually start). */
export function sandboxStatus(): SandboxStatus {
  if (cached) return cached;
  if (process.platform === 'linux') {
    const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-pid', '--die-with-parent', '--new-session', 'true'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
    if (probe.error) {
      cached = { available: false, kind: null, reason: 'bubblewrap (bwrap) is not installed', installHint: `${BWRAP_INSTALL_LINE} (Debian/Ubuntu; Fedora: sudo dnf install bubblewrap)` };
    } else if (probe.status !== 0) {
      const err = probe.stderr.toString().trim();
      cached = { available: false, kind: null, reason: `bubblewrap is installed but cannot create a sandbox here${err ? `: ${err}` : ''}`, installHint: 'Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run where they are allowed.' };
    } else {
      cached = { available: true, kind: 'bubblewrap' };
    }
  } else if (process.platform === 'darwin') {
    cached = existsSync('/usr/bin/sandbox-exec') ? { available: true, kind: 'seatbelt' } : { available: false, kind: null, reason: 'sandbox-exec is missing from /usr/bin' };
  } else {
    cached = { available: false, kind: null, reason: 'An agent sandbox is not available on Windows: agents run with your user account\'s full access.' };
  }
  return cached;
}

/** The path as the kernel sees it (symlinks resolved), so a mount lands where the agent looks. */
function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

const depth = (p: string) => p.split(path.sep).filter(Boolean).length;

export interface BwrapInput {
  command: string;
  args: string[];
  cwd: string;
  /** The agent's environment (state paths are relative to its HOME or name one of its variables). */
  env: Record<string, string | undefined>;
  scratchDir: string;
  policy: SandboxPolicy;
  /** The server's session bus address: its socket is masked too when it is a path. */
  dbusAddress?: string | undefined;
  uid?: number;
}

/**
 * The state paths, absolute: relative entries are under HOME; `$NAME/rest` is under the folder the
 * agent's variable NAME names (CLAUDE_CONFIG_DIR, CODEX_HOME...), left out when it is unset or
 * not absolute.
 */
export function statePaths(env: Record<string, string | undefined>, stateDirs: readonly string[]): string[] {
  const out: string[] = [];
  for (const entry of stateDirs) {
    const m = /^\$([A-Za-z_][A-Za-z0-9_]*)(\/.*)?$/.exec(entry);
    const base = m ? env[m[1]!] : env.HOME;
    if (!base || !path.isAbsolute(base)) continue;
    const joined = path.join(base, m ? (m[2] ?? '') : entry);
    out.push(entry.endsWith('/') && !joined.endsWith('/') ? `${joined}/` : joined);
  }
  return out;
}

/** Creates the state folders (entries ending in `/`) that do not exist yet, so they can be bound writable. */
export function prepareStatePaths(env: Record<string, string | undefined>, stateDirs: readonly string[]): void {
  for (const dir of statePaths(env, stateDirs)) {
    if (!dir.endsWith('/')) continue;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // a read-only HOME: the CLI will report what it cannot write
    }
  }
}

/**
 * bwrap arguments for one run: the whole filesystem read-only, a fresh /proc and /dev, a private
 * /tmp, the data home and the user's runtime folder (session bus, keyring) replaced by empty tmpfs, then the cwd,
 * the scratch folder and the CLI's state paths bound writable. Mounts are ordered from the
 * shallowest path down, so a writable cwd inside the data home stays visible and a data home inside
 * a writable folder stays hidden. A new PID namespace hides every host process (the server's
 * /proc/<pid>/environ included) and takes every descendant down with the main process.
 */
export function bwrapCommand(input: BwrapInput): SandboxedCommand {
  const uid = input.uid ?? process.getuid?.() ?? 0;
  const net = input.policy.network;
  // A network policy without the bridge was opened for Seatbelt: never run it with an open network.
  if (net && !net.bridge) throw Object.assign(new Error('The run network was not prepared for bubblewrap'), { code: 'network_allowlist_unavailable' });
  // Electron starts the bridge as Node; the bridge drops the variable again unless the agent had it.
  const runAsNode = Boolean(net?.bridge?.electron) && input.env.ELECTRON_RUN_AS_NODE === undefined;
  const hidden = [...input.policy.hidden, `/run/user/${uid}`].filter((p) => existsSync(p)).map(real);
  const masked: string[] = [];
  const bus = /unix:path=([^,;]+)/.exec(input.dbusAddress ?? '')?.[1];
  if (bus && existsSync(bus)) masked.push(real(bus));
  // A writable path that is itself a hidden folder (a cwd set to the data home) stays hidden: the
  // agent then works in an empty folder rather than in the data home.
  const writable = [input.cwd, input.scratchDir, ...(input.policy.writable ?? []), ...statePaths(input.env, input.policy.stateDirs)]
    .filter((p) => existsSync(p))
    .map(real)
    .filter((p) => !hidden.includes(p));
  const underTmp = (p: string) => p === '/tmp' || p.startsWith('/tmp/');
  const readable = (input.policy.readable ?? []).filter((p) => existsSync(p)).map(real).filter((p) => underTmp(p) && p !== '/tmp');
  const mounts: { path: string; args: string[]; order: number }[] = [
    // A private /tmp: the host's holds other runs' folders and the sockets of ssh-agent, the session
    // bus and X11, which a read-only mount would still let the agent connect to. It stays writable
    // (CLIs, and sandboxes of their own such as Codex's, create folders there) and vanishes with the run.
    { path: '/tmp', args: ['--tmpfs', '/tmp'], order: 0 },
    ...hidden.map((p) => ({ path: p, args: ['--tmpfs', p], order: 0 })),
    ...readable.map((p) => ({ path: p, args: ['--ro-bind', p, p], order: 1 })),
    ...masked.map((p) => ({ path: p, args: ['--ro-bind', '/dev/null', p], order: 1 })),
    ...writable.map((p) => ({ path: p, args: ['--bind', p, p], order: 2 })),
    ...(net?.bridge ? [{ path: net.bridge.dir, args: ['--ro-bind', net.bridge.dir, net.bridge.dir], order: 2 }] : []),
  ];
  mounts.sort((a, b) => depth(a.path) - depth(b.path) || a.order - b.order);
  const args = [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
    ...mounts.flatMap((m) => m.args),
    // Last, so the mount points of writable paths inside them could still be created: the empty
    // folders over the data home take no writes (non-recursive, the binds inside stay writable).
    ...hidden.flatMap((p) => ['--remount-ro', p]),
    '--unshare-pid',
    '--die-with-parent',
    '--new-session',
    ...(net ? networkArgs(net, runAsNode) : []),
    '--chdir', real(input.cwd),
    '--',
    ...(net?.bridge ? [net.bridge.nodePath, net.bridge.script, String(net.apiPort), net.bridge.apiSocket, String(net.proxyPort), net.bridge.proxySocket, runAsNode ? '1' : '0'] : []),
    input.command,
    ...input.args,
  ];
  return { command: 'bwrap', args };
}

/**
 * A network namespace of its own (bwrap brings up `lo` in it), the proxy variables pointing at the
 * bridge, and no ALL_PROXY the agent's tools might prefer over them.
 */
function networkArgs(net: NetworkPolicy, runAsNode: boolean): string[] {
  const vars = { ...proxyEnv(net), ...(runAsNode ? { ELECTRON_RUN_AS_NODE: '1' } : {}) };
  return ['--unshare-net', ...Object.entries(vars).flatMap(([k, v]) => ['--setenv', k, v]), '--unsetenv', 'ALL_PROXY', '--unsetenv', 'all_proxy'];
}

/** A string literal for a Seatbelt profile. */
const sbString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

export interface SeatbeltInput {
  cwd: string;
  env: Record<string, string | undefined>;
  scratchDir: string;
  policy: SandboxPolicy;
}

/**
 * The Seatbelt profile for one run on macOS (`sandbox-exec -p <profile>`): everything allowed, then
 * reads of the data home denied (except the cwd inside it), every write denied except the cwd, the
 * scratch folder, the CLI's state paths and the terminals, and the keychain's services unreachable.
 * In Seatbelt the last matching rule wins, so the exceptions follow the denials.
 */
export function seatbeltProfile(input: SeatbeltInput): string {
  const writable = [input.cwd, input.scratchDir, ...(input.policy.writable ?? []), ...statePaths(input.env, input.policy.stateDirs)].filter(
    (p) => !input.policy.hidden.includes(p),
  );
  const lines = [
    '(version 1)',
    '(allow default)',
    ...input.policy.hidden.map((p) => `(deny file-read* file-write* (subpath ${sbString(p)}))`),
    '(deny file-write*)',
    ...writable.map((p) => `(allow file-read* file-write* (subpath ${sbString(p)}))`),
    '(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$") (regex #"^/dev/fd/"))',
    // The login keychain is reached through these services, not through files the agent could name.
    '(deny mach-lookup (global-name "com.apple.SecurityServer") (global-name "com.apple.securityd") (global-name "com.apple.security.agent"))',
    // A host allowlist: no connection at all but to the loopback API and the run's proxy.
    ...(input.policy.network
      ? ['(deny network*)', ...[input.policy.network.apiPort, input.policy.network.proxyPort].map((port) => `(allow network-outbound (remote ip "localhost:${port}"))`)]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}

export function seatbeltCommand(input: SeatbeltInput & { command: string; args: string[] }): SandboxedCommand {
  const net = input.policy.network;
  // With an allowlist the proxy variables are set by `env` inside the sandbox, over the agent's own.
  const viaEnv = net ? ['/usr/bin/env', '-u', 'ALL_PROXY', '-u', 'all_proxy', ...Object.entries(proxyEnv(net)).map(([k, v]) => `${k}=${v}`)] : [];
  return { command: '/usr/bin/sandbox-exec', args: ['-p', seatbeltProfile(input), ...viaEnv, input.command, ...input.args] };
}
