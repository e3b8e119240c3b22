import { execFile, execFileSync, spawn } from 'node:child_process';

/**
 * The one way the server runs git on a founder's or an agent's repository: `execFile` (never a
 * shell) with every setting that could make git run a program chosen by the repository switched
 * off (hooks, fsmonitor, external diff, textconv, pager, editors, credential prompts) and the
 * system-wide config ignored. The agent's repository config itself is restored by the workspace
 * service before any command runs in it (see `sanitizeClone` in clone.ts).
 */
export const HARDENING_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.pager=cat',
  'core.editor=true',
  'core.sshCommand=false',
  'core.alternateRefsCommand=',
  'diff.external=',
  'credential.helper=',
  'protocol.allow=never',
  'protocol.file.allow=always',
  'commit.gpgSign=false',
  'tag.gpgSign=false',
  'uploadpack.packObjectsHook=',
  'advice.detachedHead=false',
];

export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Variables of an outer git (a hook running the server, a test under `git rebase -x`) would point
  // every command at another repository.
  for (const name of Object.keys(env)) if (name.startsWith('GIT_')) delete env[name];
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    GIT_EDITOR: 'true',
    GIT_ASKPASS: 'true',
    GIT_OPTIONAL_LOCKS: '0',
    LC_ALL: 'C',
    ...extra,
  };
}

export const hardenedArgs = (args: readonly string[]): string[] => [...HARDENING_CONFIG.flatMap((c) => ['-c', c]), '--no-pager', ...args];

export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export interface GitOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Bytes of stdout kept; more is an error unless `truncate` is set. */
  maxBuffer?: number;
}

/** Runs git; resolves with the exit code instead of throwing (callers decide what a non-zero means). */
export function git(args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      hardenedArgs(args),
      { cwd: options.cwd, env: gitEnv(options.env), maxBuffer: options.maxBuffer ?? 64 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        if (err && typeof (err as NodeJS.ErrnoException).code !== 'number') return reject(err);
        resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code) : 0 });
      },
    );
  });
}

/** Runs git and returns trimmed stdout, throwing a `GitError` with git's message on failure. */
export async function gitOk(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const r = await git(args, options);
  if (r.code !== 0) throw new GitError(args, r);
  return r.stdout.trim();
}

/** Synchronous form for validation inside a request (short, read-only commands only). */
export function gitSync(args: readonly string[], cwd: string): { ok: boolean; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync('git', hardenedArgs(args), { cwd, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 15_000 });
    return { ok: true, stdout: stdout.trim(), stderr: '' };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, stdout: String(e.stdout ?? '').trim(), stderr: String(e.stderr ?? (err as Error).message).trim() };
  }
}

export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly result: GitResult,
  ) {
    super(`git ${args[0]} failed: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`);
    this.name = 'GitError';
  }
}

/** Runs git keeping at most `cap` bytes of stdout: the rest is dropped (the process is stopped) and `truncated` set. */
export function gitCapped(args: readonly string[], cap: number, options: GitOptions = {}): Promise<{ stdout: string; truncated: boolean; code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', hardenedArgs(args), { cwd: options.cwd, env: gitEnv(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      if (truncated) return;
      if (size + b.length > cap) {
        chunks.push(b.subarray(0, cap - size));
        size = cap;
        truncated = true;
        child.kill('SIGTERM');
        return;
      }
      chunks.push(b);
      size += b.length;
    });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      // A cut in the middle of a multi-byte character is dropped rather than shown as garbage.
      const text = Buffer.concat(chunks).toString('utf8').replace(/\uFFFD$/, '');
      resolve({ stdout: text, truncated, code: truncated ? 0 : code, stderr });
    });
  });
}
