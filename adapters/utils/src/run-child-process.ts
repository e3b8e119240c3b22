import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { killTree, signalName } from './kill-tree.js';
import { holdPtyTail } from './pty-tail.js';

export interface RunChildProcessOptions {
  args?: string[];
  cwd?: string;
  /** Added to this process's environment (`inheritEnv: false` starts from nothing). */
  env?: Record<string, string>;
  inheritEnv?: boolean;
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
}

interface Started {
  pid: number;
  /** Resolves once the process has exited and its output is drained. */
  done: Promise<{ exitCode: number | null; signal: string | null }>;
}

type Emit = (stream: 'stdout' | 'stderr', chunk: string) => void;

function startPipes(command: string, opts: RunChildProcessOptions, env: NodeJS.ProcessEnv, emit: Emit): Started {
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
    child.once('exit', () => {
      // Descendants that outlive the child would keep the pipes open (and be orphans): end them.
      if (child.pid) killTree(child.pid, 'SIGKILL');
    });
    child.once('close', (code, sig) => {
      const tailOut = out.end();
      const tailErr = err.end();
      if (tailOut) emit('stdout', tailOut);
      if (tailErr) emit('stderr', tailErr);
      resolve({ exitCode: code, signal: signalName(sig) });
    });
  });
  if (child.pid === undefined) {
    return { pid: -1, done };
  }
  return { pid: child.pid, done };
}

async function startPty(command: string, opts: RunChildProcessOptions, env: NodeJS.ProcessEnv, emit: Emit): Promise<Started> {
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
    term.write(opts.stdin);
    // ^D at the start of a line is end-of-file for the terminal's line discipline.
    term.write(opts.stdin.endsWith('\n') ? '\x04' : '\n\x04');
  }
  const done = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
    term.onExit(({ exitCode, signal }) => {
      releaseTail();
      killTree(term.pid, 'SIGKILL');
      const sig = signalName(signal);
      resolve({ exitCode: sig ? null : exitCode, signal: sig });
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
  const env = { ...(opts.inheritEnv === false ? {} : process.env), ...(opts.env ?? {}) };
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
    killTree(pid, 'SIGTERM');
    killTimer = setTimeout(() => killTree(pid, 'SIGKILL'), graceMs);
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

  if (opts.signal?.aborted) throw new Error('runChildProcess: aborted before start');
  const child = opts.pty ? await startPty(command, opts, env, emit) : startPipes(command, opts, env, emit);
  current.child = child;
  // No pid means the spawn failed (command not found, bad cwd): `done` rejects with the reason.
  if (child.pid <= 0) await child.done;
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
    const { exitCode, signal } = await child.done;
    return { exitCode, signal, timedOut, idleTimedOut, cancelled, pid: child.pid, durationMs: Date.now() - started };
  } finally {
    clearTimeout(stopTimer);
    clearTimeout(killTimer);
    clearTimeout(idleTimer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
