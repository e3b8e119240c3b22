import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { signalName } from './kill-tree.js';
import { holdPtyTail } from './pty-tail.js';
import { buildAgentEnv } from './confine/agent-env.js';
import { currentConfinement, type Confinement } from './confine/confinement.js';
import { bwrapCommand, prepareStatePaths, sandboxStatus, seatbeltCommand } from './confine/sandbox.js';
import { PROCESS_TAG_VAR } from './confine/process-tree.js';
import { killRunTree, sweepRunTree } from './confine/kill-run.js';
import { resolveCommand } from './resolve-command.js';

export interface RunChildProcessOptions {
  args?: string[];
  cwd?: string;
  /**
   * Set on top of the built agent environment (see `buildAgentEnv`): the server's own environment is
   * never inherited, only its allowlisted names and the confinement's `inheritEnv` names.
   */
  env?: Record<string, string>;
  /**
   * How to confine the process; default: the confinement of the current run (`withConfinement`),
   * else none (allowlisted environment, no sandbox). `null` forces none.
   */
  confinement?: Confinement | null;
  /** Milliseconds before the run is stopped; 0 or absent means no limit. */
  timeout?: number;
  /** After SIGTERM, how long the tree may take to exit before SIGKILL. Default 10000. */
  graceMs?: number;
  /** Fails the run when it prints nothing for this long (ms). */
  idleTimeout?: number;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** Run under a pseudo-terminal (node-pty), as interactive agent CLIs expect. One stream: stdout. */
  pty?: boolean;
  cols?: number;
  rows?: number;
  /** Written to stdin, then stdin is closed (under a PTY: followed by end-of-file, ^D). */
  stdin?: string;
  /** Aborting cancels the run: SIGTERM to the tree, SIGKILL after `graceMs`. */
  signal?: AbortSignal;
  onSpawn?: (pid: number) => void;
  /** Windows: pass arguments unquoted (a `cmd.exe /d /s /c "<line>"` from `commandArgs`). */
  windowsVerbatimArguments?: boolean;
}

export interface ChildProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  idleTimedOut: boolean;
  cancelled: boolean;
  pid: number;
  durationMs: number;
  /** Whether the process ran inside the OS sandbox. */
  sandboxed: boolean;
}

interface Started {
  pid: number;
  /** Resolves once the process has exited and its output is drained. */
  done: Promise<{ exitCode: number | null; signal: string | null }>;
}

type Emit = (stream: 'stdout' | 'stderr', chunk: string) => void;

/** After the main process exited, how long its pipes may still deliver output before they are cut. */
const PIPE_DRAIN_MS = 500;

function startPipes(command: string, opts: RunChildProcessOptions, env: NodeJS.ProcessEnv, emit: Emit, killLeftovers: (pid: number) => Promise<void>): Started {
  const child = spawn(command, opts.args ?? [], {
    cwd: opts.cwd,
    env,
    // A new process group, so the whole tree can be signalled at once.
    detached: process.platform !== 'win32',
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
    ...(opts.windowsVerbatimArguments ? { windowsVerbatimArguments: true } : {}),
  });
  const out = new StringDecoder('utf8');
  const err = new StringDecoder('utf8');
  child.stdout.on('data', (b: Buffer) => emit('stdout', out.write(b)));
  child.stderr.on('data', (b: Buffer) => emit('stderr', err.write(b)));
  child.stdin.on('error', () => {}); // the child may exit without reading its input
  child.stdin.end(opts.stdin ?? '');
  const done = new Promise<{ exitCode: number | null; signal: string | null }>((resolve, reject) => {
    child.once('error', reject);
    // The run ends when its main process exits, not when the last pipe closes: a descendant that
    // inherited stdout (a `setsid` grandchild) must not keep the run alive. Leftovers are killed,
    // then the pipes get a moment to deliver what was already written before they are cut.
    child.once('exit', (code, sig) => {
      const swept = child.pid ? killLeftovers(child.pid) : Promise.resolve();
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        clearTimeout(drain);
        child.stdout.destroy();
        child.stderr.destroy();
        const tailOut = out.end();
        const tailErr = err.end();
        if (tailOut) emit('stdout', tailOut);
        if (tailErr) emit('stderr', tailErr);
        // The run is over only once nothing it started is left.
        void swept.then(() => resolve({ exitCode: code, signal: signalName(sig) }));
      };
      const drain = setTimeout(finish, PIPE_DRAIN_MS);
      child.once('close', finish);
    });
  });
  if (child.pid === undefined) {
    return { pid: -1, done };
  }
  return { pid: child.pid, done };
}

async function startPty(command: string, opts: RunChildProcessOptions, env: NodeJS.ProcessEnv, emit: Emit, killLeftovers: (pid: number) => Promise<void>): Promise<Started> {
  const pty = await import('node-pty');
  const term = pty.spawn(command, opts.args ?? [], {
    name: 'xterm-256color',
    cols: opts.cols ?? 120,
    rows: opts.rows ?? 40,
    cwd: opts.cwd ?? process.cwd(),
    env: env as Record<string, string>,
  });
  term.onData((data) => emit('stdout', data));
  const releaseTail = holdPtyTail(term as unknown as Parameters<typeof holdPtyTail>[0], (text) => emit('stdout', text));
  if (opts.stdin !== undefined) {
    // ^D at the start of a line is end-of-file for the terminal's line discipline. One write: node-pty
    // writes each call on its own turn of the thread pool, and the terminal echoes what it is given,
    // so under load the echo of a separate "\n" landed in the middle of the child's output, splitting
    // a secret it printed with "\r\n" where the redactor could not find it.
    term.write(opts.stdin + (opts.stdin.endsWith('\n') ? '\x04' : '\n\x04'));
  }
  const done = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
    term.onExit(({ exitCode, signal }) => {
      releaseTail();
      const sig = signalName(signal);
      void killLeftovers(term.pid).then(() => resolve({ exitCode: sig ? null : exitCode, signal: sig }));
    });
  });
  return { pid: term.pid, done };
}

/**
 * Runs one agent process to completion and always enforces its limits: on timeout, idle timeout
 * or cancel the whole process tree gets SIGTERM, then SIGKILL after `graceMs`. Output arrives as
 * decoded text chunks (never a split UTF-8 character) through `onStdout` / `onStderr`.
 */
export async function runChildProcess(command: string, opts: RunChildProcessOptions = {}): Promise<ChildProcessResult> {
  const started = Date.now();
  const confinement = opts.confinement === undefined ? currentConfinement() : opts.confinement;
  // Every process of this call carries the tag, so descendants that leave the group are still found.
  const tag = randomUUID();
  const useSandbox = Boolean(confinement?.sandbox) && sandboxStatus().available;
  const scratchDir = useSandbox ? mkdtempSync(path.join(os.tmpdir(), 'headcount-run-')) : null;
  const env = buildAgentEnv({
    source: process.env,
    inherit: confinement?.inheritEnv ?? [],
    extra: { ...(opts.env ?? {}), [PROCESS_TAG_VAR]: tag, ...(scratchDir ? { TMPDIR: scratchDir } : {}) },
  });
  const cwd = opts.cwd ?? process.cwd();
  let spawnCommand = command;
  let spawnArgs = opts.args ?? [];
  if (useSandbox && scratchDir && confinement?.sandbox) {
    const input = { cwd, env, scratchDir, policy: confinement.sandbox };
    prepareStatePaths(env, confinement.sandbox.stateDirs);
    const wrapped =
      process.platform === 'darwin'
        ? seatbeltCommand({ ...input, command, args: spawnArgs })
        : bwrapCommand({ ...input, command, args: spawnArgs, dbusAddress: process.env.DBUS_SESSION_BUS_ADDRESS });
    // Inside the sandbox a missing command would surface as bwrap's own exit status: fail the same
    // way an unsandboxed spawn does instead.
    if (!resolveCommand(command, env)) {
      rmSync(scratchDir, { recursive: true, force: true });
      throw Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT' });
    }
    spawnCommand = wrapped.command;
    spawnArgs = wrapped.args;
  }
  const spawnOpts: RunChildProcessOptions = { ...opts, cwd, args: spawnArgs };
  const killLeftovers = (pid: number) => sweepRunTree(pid, tag);
  const graceMs = opts.graceMs ?? 10_000;
  let timedOut = false;
  let idleTimedOut = false;
  let cancelled = false;
  let stopTimer: NodeJS.Timeout | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  // Filled once spawned; `stop` may be called by a timer only after that.
  const current: { child?: Started } = {};

  const stop = () => {
    const pid = current.child?.pid;
    if (pid === undefined || killTimer) return;
    // Under bubblewrap the leader is bwrap itself (see killRunTree); sandbox-exec execs the command.
    killRunTree(pid, tag, 'SIGTERM', useSandbox && process.platform === 'linux');
    killTimer = setTimeout(() => killRunTree(pid, tag, 'SIGKILL'), graceMs);
  };
  const armIdle = () => {
    if (!opts.idleTimeout) return;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimedOut = true;
      stop();
    }, opts.idleTimeout);
  };
  const emit: Emit = (stream, chunk) => {
    if (!chunk) return;
    armIdle();
    (stream === 'stdout' ? opts.onStdout : opts.onStderr)?.(chunk);
  };

  const cleanScratch = () => {
    if (scratchDir) rmSync(scratchDir, { recursive: true, force: true });
  };
  if (opts.signal?.aborted) {
    cleanScratch();
    throw new Error('runChildProcess: aborted before start');
  }
  let child: Started;
  try {
    child = opts.pty ? await startPty(spawnCommand, spawnOpts, env, emit, killLeftovers) : startPipes(spawnCommand, spawnOpts, env, emit, killLeftovers);
    current.child = child;
    // No pid means the spawn failed (command not found, bad cwd): `done` rejects with the reason.
    if (child.pid <= 0) await child.done;
  } catch (err) {
    cleanScratch();
    throw err;
  }
  opts.onSpawn?.(child.pid);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // A cancel that arrived while the process was being started (the PTY import is async) counts too.
  if (opts.signal?.aborted) onAbort();
  if (opts.timeout && opts.timeout > 0) {
    stopTimer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeout);
  }
  armIdle();
  try {
    const done = await child.done;
    // bwrap reports a command killed by signal N as exit status 128 + N, as a shell does.
    const bySignal = useSandbox && process.platform === 'linux' && done.exitCode !== null && done.exitCode > 128 && done.exitCode < 128 + 65;
    const exitCode = bySignal ? null : done.exitCode;
    const signal = bySignal ? signalName(done.exitCode! - 128) : done.signal;
    return { exitCode, signal, timedOut, idleTimedOut, cancelled, pid: child.pid, durationMs: Date.now() - started, sandboxed: useSandbox };
  } finally {
    cleanScratch();
    clearTimeout(stopTimer);
    clearTimeout(killTimer);
    clearTimeout(idleTimer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
