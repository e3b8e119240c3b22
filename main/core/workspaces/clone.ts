import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitOk } from './git.js';

/**
 * The agent's repository is a local clone of the founder's repository (docs/architecture.md,
 * "Workspaces"): `--shared` reads the founder's objects through `objects/info/alternates` without
 * copying or hard-linking them, and every write of the agent (objects, refs, index, config) lands
 * inside the clone's own folder, the only folder the sandbox lets it write.
 */

export const branchFor = (identifier: string) => `headcount/${identifier}`;

export interface CloneSpec {
  repoPath: string;
  baseBranch: string;
  branch: string;
  /** Final folder of the clone. */
  dir: string;
  /** Optional board command run once in the new clone (through the user's shell: it is the founder's own command). */
  setupCommand?: string | null;
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/** Where a clone is built before it is renamed into place: a leftover one is a crash mid-creation. */
export const partialDir = (dir: string) => `${dir}.partial`;

/**
 * Builds the clone in `<dir>.partial`, checks out the branch from the base branch, runs the
 * setup command, then renames it into place: a crash at any step leaves only a `.partial` folder,
 * removed at the next start or the next attempt. Returns the clone's config as written.
 */
export interface CloneFiles {
  config: string;
  alternates: string;
}

export async function createClone(spec: CloneSpec): Promise<CloneFiles> {
  const tmp = partialDir(spec.dir);
  rmSync(tmp, { recursive: true, force: true });
  // A folder without a row (a crash between rename and insert) is rebuilt from scratch.
  rmSync(spec.dir, { recursive: true, force: true });
  mkdirSync(path.dirname(spec.dir), { recursive: true, mode: 0o700 });
  try {
    // --template= : no hooks copied from the founder's git templates; --no-checkout: nothing of the
    // base branch is written before the issue branch exists.
    await gitOk(['clone', '--quiet', '--shared', '--no-checkout', '--template=', '--single-branch', '--branch', spec.baseBranch, '--', spec.repoPath, tmp]);
    await gitOk(gitIn(tmp, ['checkout', '--quiet', '-b', spec.branch, `refs/heads/${spec.baseBranch}`]));
    if (spec.setupCommand) await runSetup(spec.setupCommand, tmp, spec.onOutput);
    const files = { config: readFileSync(path.join(tmp, '.git', 'config'), 'utf8'), alternates: readFileSync(path.join(tmp, '.git', 'objects', 'info', 'alternates'), 'utf8') };
    renameSync(tmp, spec.dir);
    return files;
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** git arguments that name the clone's repository and work tree explicitly (no discovery through a `.git` file the agent may have replaced). */
export const gitIn = (dir: string, args: readonly string[]): string[] => [`--git-dir=${path.join(dir, '.git')}`, `--work-tree=${dir}`, ...args];

export class TamperedError extends Error {
  readonly code = 'workspace_tampered';
}

/**
 * Puts the clone back into a state where the server's own git commands run nothing the agent
 * chose: `.git` a real folder, no `commondir` redirecting config to another folder, and the
 * config and alternates exactly as the server wrote them (filters, includes, aliases the agent
 * added are gone).
 * Returns whether the config had to be restored.
 */
export function sanitizeClone(dir: string, files: CloneFiles): boolean {
  const gitDir = path.join(dir, '.git');
  let st;
  try {
    st = lstatSync(gitDir);
  } catch {
    throw new TamperedError(`${gitDir} is missing`);
  }
  if (!st.isDirectory()) throw new TamperedError(`${gitDir} is no longer a folder`);
  for (const redirect of ['commondir', 'config.worktree']) rmSync(path.join(gitDir, redirect), { force: true, recursive: true });
  const restoredConfig = restore(path.join(gitDir, 'config'), files.config);
  // The founder's objects are reached through this file: pointed elsewhere, status and merge would read another repository.
  const restoredAlternates = restore(path.join(gitDir, 'objects', 'info', 'alternates'), files.alternates);
  return restoredConfig || restoredAlternates;
}

function restore(file: string, content: string): boolean {
  let current: string | null = null;
  try {
    current = lstatSync(file).isFile() ? readFileSync(file, 'utf8') : null;
  } catch {
    current = null;
  }
  if (current === content) return false;
  rmSync(file, { force: true, recursive: true });
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content, { mode: 0o644 });
  return true;
}

function runSetup(command: string, cwd: string, onOutput?: CloneSpec['onOutput']): Promise<void> {
  onOutput?.('stdout', `[headcount] workspace setup: ${command}\n`);
  return new Promise((resolve, reject) => {
    const shell = process.platform === 'win32' ? (process.env.ComSpec ?? 'cmd.exe') : '/bin/sh';
    const args = process.platform === 'win32' ? ['/d', '/s', '/c', command] : ['-c', command];
    const child = spawn(shell, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: setupEnv() });
    child.stdout.on('data', (b: Buffer) => onOutput?.('stdout', b.toString('utf8')));
    child.stderr.on('data', (b: Buffer) => onOutput?.('stderr', b.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(Object.assign(new Error(`The workspace setup command exited with ${code}`), { code: 'workspace_setup_failed' }))));
  });
}

/** The server's environment without its own settings (board token, data home, master key). */
function setupEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SERVICE_') && !k.startsWith('GIT_')) env[k] = v;
  return env;
}

/** Removes leftovers of interrupted creations under the workspaces folder. */
export function removePartials(root: string, readdir: (p: string) => string[]): string[] {
  const removed: string[] = [];
  if (!existsSync(root)) return removed;
  for (const company of readdir(root)) {
    const dir = path.join(root, company);
    for (const name of readdir(dir)) {
      if (!name.endsWith('.partial')) continue;
      rmSync(path.join(dir, name), { recursive: true, force: true });
      removed.push(path.join(dir, name));
    }
  }
  return removed;
}
