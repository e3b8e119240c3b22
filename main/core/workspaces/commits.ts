import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../db/connection.js';
import { heartbeatRuns } from '../heartbeat/schema.js';
import { gitOk } from './git.js';
import { gitIn } from './clone.js';
import type { WorkspaceRef, WorkspaceState } from './inspect.js';

export const COMMITS_CAP = 100;

export interface BranchCommit {
  sha: string;
  shortSha: string;
  subject: string;
  authorName: string;
  /** Committer time, ISO. */
  committedAt: string;
  runId: string | null;
}

const FIELDS = 5;

/**
 * The branch's own commits (merge base to head, the range the diff shows), newest first, at most
 * `cap`. Every field ends in NUL (`-z` plus `%x00`): a subject holds any character but NUL.
 * `--no-show-signature` because a user's `log.showSignature` would start gpg; `--no-use-mailmap`
 * because the branch's own .mailmap could rename its authors.
 */
export async function branchCommits(ws: WorkspaceRef, state: WorkspaceState, cap = COMMITS_CAP): Promise<Omit<BranchCommit, 'runId'>[]> {
  if (state.mergeBase === state.headSha) return [];
  const out = await gitOk(
    gitIn(ws.path, ['log', '-z', '--no-color', '--no-show-signature', '--no-notes', '--no-use-mailmap', `--max-count=${cap}`, '--format=%H%x00%h%x00%an%x00%ct%x00%s', `${state.mergeBase}..${state.headSha}`, '--']),
  );
  const parts = out.split('\0');
  const commits: Omit<BranchCommit, 'runId'>[] = [];
  for (let i = 0; i + FIELDS <= parts.length; i += FIELDS) {
    const [sha, shortSha, authorName, seconds, subject] = parts.slice(i, i + FIELDS) as [string, string, string, string, string];
    if (!sha) break;
    commits.push({ sha, shortSha, subject, authorName, committedAt: new Date(Number(seconds) * 1000).toISOString() });
  }
  return commits;
}

/**
 * Each commit's run: the run of this issue whose [startedAt, finishedAt or now] holds the commit's
 * committer time. Git keeps whole seconds, so a window opens at its start's whole second (a commit
 * in the run's first second must not fall outside it). When one run ends and the next starts within
 * the second of a commit, both hold it: the earlier run wins, since an agent commits at the end of
 * its work, never in the first second of a run (its CLI is still starting). A commit in no window
 * (the founder's own, or one with a forged date) has none.
 */
export function attributeRuns(db: Db, issueId: string, commits: Omit<BranchCommit, 'runId'>[], now: Date): BranchCommit[] {
  if (commits.length === 0) return [];
  const runs = db
    .select({ id: heartbeatRuns.id, startedAt: heartbeatRuns.startedAt, finishedAt: heartbeatRuns.finishedAt })
    .from(heartbeatRuns)
    .where(and(eq(heartbeatRuns.taskIssueId, issueId), isNotNull(heartbeatRuns.startedAt)))
    .all()
    .map((r) => ({ id: r.id, start: Math.floor(Date.parse(r.startedAt!) / 1000) * 1000, end: r.finishedAt ? Date.parse(r.finishedAt) : now.getTime() }))
    .sort((a, b) => a.start - b.start);
  return commits.map((c) => {
    const at = Date.parse(c.committedAt);
    return { ...c, runId: runs.find((r) => at >= r.start && at <= r.end)?.id ?? null };
  });
}
