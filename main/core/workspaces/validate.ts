import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { badRequest } from '../kernel/errors.js';
import { gitSync } from './git.js';

export interface WorkspaceSetting {
  repoPath: string;
  baseBranch: string;
}

const invalid = (reason: string) => badRequest('invalid_workspace', `The workspace is not usable: ${reason}`, { reason });

/**
 * A project's workspace as the board gave it, checked against the disk: an absolute path to the
 * top folder of a non-bare git repository, and a branch that exists there (default: the branch
 * checked out). Throws 400 `invalid_workspace` with the reason.
 */
export function validateWorkspace(input: { repoPath: string; baseBranch?: string | undefined }, dataHome?: string): WorkspaceSetting {
  const { repoPath } = input;
  if (!path.isAbsolute(repoPath)) throw invalid(`"${repoPath}" is not an absolute path`);
  let real: string;
  try {
    real = realpathSync(repoPath);
    if (!statSync(real).isDirectory()) throw invalid(`${repoPath} is not a folder`);
  } catch (err) {
    if ((err as { code?: string }).code === 'invalid_workspace') throw err;
    throw invalid(`${repoPath} does not exist`);
  }
  // The data home holds the agents' own clones and is hidden from every sandboxed agent.
  if (dataHome && isInside(real, dataHome)) throw invalid(`${repoPath} is inside Headcount's data folder; give your own repository`);
  const top = gitSync(['rev-parse', '--is-bare-repository', '--show-toplevel'], real);
  if (!top.ok) throw invalid(`${repoPath} is not a git repository`);
  const [bare, toplevel] = top.stdout.split('\n');
  if (bare === 'true' || !toplevel) throw invalid(`${repoPath} is a bare repository; give a repository with a working tree`);
  if (realpathSync(toplevel) !== real) throw invalid(`${repoPath} is inside the repository ${toplevel}; give its top folder`);
  let baseBranch = input.baseBranch;
  if (baseBranch === undefined) {
    const head = gitSync(['symbolic-ref', '--quiet', '--short', 'HEAD'], real);
    if (!head.ok || !head.stdout) throw invalid('the repository has no branch checked out (detached HEAD); give baseBranch');
    baseBranch = head.stdout;
  }
  if (!gitSync(['check-ref-format', '--branch', baseBranch], real).ok || baseBranch.startsWith('-')) throw invalid(`"${baseBranch}" is not a valid branch name`);
  if (!gitSync(['rev-parse', '--verify', '--quiet', `refs/heads/${baseBranch}^{commit}`], real).ok) throw invalid(`the branch "${baseBranch}" does not exist or has no commit yet`);
  return { repoPath: real, baseBranch };
}

function isInside(p: string, root: string): boolean {
  let r: string;
  try {
    r = realpathSync(root);
  } catch {
    r = path.resolve(root);
  }
  const rel = path.relative(r, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
