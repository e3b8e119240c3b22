import path from 'node:path';
import { conflict } from '../kernel/errors.js';
import { git, gitOk } from './git.js';
import type { WorkspaceRef } from './inspect.js';

export interface MergeOutcome {
  kind: 'fast_forward' | 'merge_commit' | 'up_to_date';
  /** The base branch's tip after the merge. */
  sha: string;
  previousSha: string;
  /** The founder's checkout that was moved along with the branch, if the base branch was checked out. */
  updatedCheckout: string | null;
}

/** The founder's worktrees that have `branch` checked out (normally at most one). */
async function checkoutsOf(repoPath: string, branch: string): Promise<string[]> {
  const out = await gitOk(['worktree', 'list', '--porcelain', '-z'], { cwd: repoPath });
  const found: string[] = [];
  let current: string | null = null;
  for (const line of out.split('\0')) {
    if (line.startsWith('worktree ')) current = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}` && current) found.push(current);
  }
  return found;
}

/** Identity for a merge commit when the founder's repository has none configured. */
async function identityEnv(repoPath: string): Promise<Record<string, string>> {
  const name = await git(['config', 'user.name'], { cwd: repoPath });
  const email = await git(['config', 'user.email'], { cwd: repoPath });
  if (name.code === 0 && email.code === 0) return {};
  return { GIT_AUTHOR_NAME: 'Headcount', GIT_AUTHOR_EMAIL: 'headcount@localhost', GIT_COMMITTER_NAME: 'Headcount', GIT_COMMITTER_EMAIL: 'headcount@localhost' };
}

/**
 * Merges the agent's branch into the founder's base branch (docs/architecture.md, "Workspaces").
 * The branch is fetched from the clone into a scratch ref; the merge result is computed without any
 * work tree (`merge-tree --write-tree`); only then is the base branch moved: by `git merge
 * --ff-only` inside the founder's checkout when it has the base branch checked out and is clean
 * (ref, index and files move together, and git itself refuses to overwrite anything), else by a
 * compare-and-swap `update-ref`. A conflict, a dirty checkout or a base that moved meanwhile answers
 * 409 and leaves the founder's branches, index and files as they were.
 */
export async function mergeWorkspace(ws: WorkspaceRef, identifier: string, title: string): Promise<MergeOutcome> {
  const scratch = `refs/headcount-merge/${identifier}`;
  const repo = { cwd: ws.repoPath };
  await gitOk(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', path.join(ws.path, '.git'), `+refs/heads/${ws.branch}:${scratch}`], repo);
  try {
    const head = await gitOk(['rev-parse', '--verify', `${scratch}^{commit}`], repo);
    const base = await gitOk(['rev-parse', '--verify', `refs/heads/${ws.baseBranch}^{commit}`], repo);
    if ((await git(['merge-base', '--is-ancestor', head, base], repo)).code === 0) {
      await gitOk(['update-ref', `refs/heads/${ws.branch}`, head], repo);
      return { kind: 'up_to_date', sha: base, previousSha: base, updatedCheckout: null };
    }
    let target = head;
    let kind: MergeOutcome['kind'] = 'fast_forward';
    if ((await git(['merge-base', '--is-ancestor', base, head], repo)).code !== 0) {
      const merged = await git(['merge-tree', '--write-tree', '--name-only', '--no-messages', base, head], repo);
      const [tree, ...conflicted] = merged.stdout.split('\n').filter(Boolean);
      if (merged.code === 1) throw conflict('merge_conflict', `Merging ${ws.branch} into ${ws.baseBranch} conflicts in ${conflicted.length} file(s): ${conflicted.slice(0, 10).join(', ')}`, { files: conflicted });
      if (merged.code !== 0 || !tree) throw new Error(`git merge-tree failed: ${merged.stderr.trim()}`);
      target = await gitOk(['commit-tree', tree, '-p', base, '-p', head, '-m', `Merge ${ws.branch}: ${title}`], { ...repo, env: await identityEnv(ws.repoPath) });
      kind = 'merge_commit';
    }
    const checkouts = await checkoutsOf(ws.repoPath, ws.baseBranch);
    let updatedCheckout: string | null = null;
    if (checkouts.length > 0) {
      const checkout = checkouts[0]!;
      const status = await gitOk(['status', '--porcelain=v1', '-z', '--untracked-files=no', '--ignore-submodules=all'], { cwd: checkout });
      if (status.length > 0) throw conflict('base_checkout_dirty', `Your checkout of ${ws.baseBranch} at ${checkout} has uncommitted changes: commit or stash them, then merge again`, { checkout });
      const ff = await git(['merge', '--ff-only', '--quiet', '--no-edit', target], { cwd: checkout });
      if (ff.code !== 0) throw conflict('base_checkout_blocked', `Your checkout of ${ws.baseBranch} at ${checkout} could not be updated: ${ff.stderr.trim() || ff.stdout.trim()}`, { checkout });
      updatedCheckout = checkout;
    } else {
      const moved = await git(['update-ref', '-m', `headcount: merge ${ws.branch}`, `refs/heads/${ws.baseBranch}`, target, base], repo);
      if (moved.code !== 0) throw conflict('base_moved', `${ws.baseBranch} changed during the merge; merge again`);
    }
    // The founder keeps the agent's branch in their repository as a record of what was merged.
    await gitOk(['update-ref', `refs/heads/${ws.branch}`, head], repo);
    return { kind, sha: target, previousSha: base, updatedCheckout };
  } finally {
    await git(['update-ref', '-d', scratch], repo);
  }
}
