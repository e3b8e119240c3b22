import { gitCapped, gitOk, git } from './git.js';
import { gitIn } from './clone.js';

export interface WorkspaceFile {
  path: string;
  status: 'added' | 'modified' | 'deleted' | 'type_changed' | 'other';
  /** Lines; null for a binary file. */
  additions: number | null;
  deletions: number | null;
}

export interface WorkspaceState {
  headSha: string;
  baseSha: string;
  mergeBase: string;
  dirty: boolean;
  ahead: number;
  behind: number;
  files: WorkspaceFile[];
}

export interface WorkspaceRef {
  path: string;
  branch: string;
  repoPath: string;
  baseBranch: string;
}

const STATUS: Record<string, WorkspaceFile['status']> = { A: 'added', M: 'modified', D: 'deleted', T: 'type_changed' };

/** The founder's base branch tip, read in the founder's repository. */
export const baseTip = (ws: WorkspaceRef) => gitOk(['rev-parse', '--verify', `refs/heads/${ws.baseBranch}^{commit}`], { cwd: ws.repoPath });

/**
 * What the agent's branch holds against the founder's base branch. Only commit-to-commit
 * comparisons (no work-tree content goes through a filter), the base commit read through the
 * clone's alternates; `dirty` from `git status` with the server's own config (the clone was sanitized).
 */
export async function inspectWorkspace(ws: WorkspaceRef): Promise<WorkspaceState> {
  const baseSha = await baseTip(ws);
  const head = await git(gitIn(ws.path, ['rev-parse', '--verify', '--quiet', `refs/heads/${ws.branch}^{commit}`]));
  // The agent deleted its branch: nothing of it is left to merge.
  const headSha = head.code === 0 ? head.stdout.trim() : baseSha;
  const mergeBase = await gitOk(gitIn(ws.path, ['merge-base', baseSha, headSha]));
  const [behind, ahead] = (await gitOk(gitIn(ws.path, ['rev-list', '--left-right', '--count', `${baseSha}...${headSha}`]))).split(/\s+/).map(Number);
  const numstat = await gitOk(gitIn(ws.path, ['diff', '--no-ext-diff', '--no-textconv', '--no-renames', '--numstat', '-z', mergeBase, headSha]));
  const nameStatus = await gitOk(gitIn(ws.path, ['diff', '--no-ext-diff', '--no-textconv', '--no-renames', '--name-status', '-z', mergeBase, headSha]));
  const counts = new Map<string, { additions: number | null; deletions: number | null }>();
  for (const entry of numstat.split('\0').filter(Boolean)) {
    const [a, d, ...rest] = entry.split('\t');
    counts.set(rest.join('\t'), { additions: a === '-' ? null : Number(a), deletions: d === '-' ? null : Number(d) });
  }
  const parts = nameStatus.split('\0');
  const files: WorkspaceFile[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const letter = parts[i]!;
    const file = parts[i + 1]!;
    if (!letter) break;
    files.push({ path: file, status: STATUS[letter[0]!] ?? 'other', ...(counts.get(file) ?? { additions: null, deletions: null }) });
  }
  const status = await gitOk(gitIn(ws.path, ['status', '--porcelain=v1', '-z', '--untracked-files=normal', '--ignore-submodules=all']), { cwd: ws.path });
  return { headSha, baseSha, mergeBase, dirty: status.length > 0, ahead: ahead ?? 0, behind: behind ?? 0, files };
}

/** The unified diff of the agent's branch against its merge base with the base branch. */
export const DIFF_CAP_BYTES = 1024 * 1024;

export async function workspaceDiff(ws: WorkspaceRef, state: WorkspaceState, cap = DIFF_CAP_BYTES): Promise<{ diff: string; truncated: boolean; capBytes: number }> {
  const r = await gitCapped(gitIn(ws.path, ['diff', '--no-color', '--no-ext-diff', '--no-textconv', '--no-renames', state.mergeBase, state.headSha]), cap);
  if (r.code !== 0) throw new Error(`git diff failed: ${r.stderr.trim()}`);
  return { diff: r.stdout, truncated: r.truncated, capBytes: cap };
}
