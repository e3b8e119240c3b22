import { z } from 'zod';

const Sha = z.string().describe('Commit id');

export const WorkspaceFile = z.object({
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted', 'type_changed', 'other']),
  additions: z.int().nullable().describe('Lines added; null for a binary file'),
  deletions: z.int().nullable(),
});

export const WorkspaceCommit = z
  .object({
    sha: Sha,
    shortSha: z.string(),
    subject: z.string().describe('First line of the message'),
    authorName: z.string(),
    committedAt: z.string().describe('Committer time (ISO 8601, whole seconds)'),
    runId: z.string().nullable().describe('The run of this issue during which the commit was made (committer time within the run\'s start and end); null when none was, e.g. a commit made by hand'),
  })
  .meta({ id: 'WorkspaceCommit' });

export const IssueWorkspace = z
  .object({
    path: z.string().describe('The agent\'s clone of the repository, under the data home'),
    branch: z.string().describe('headcount/<issue identifier>'),
    baseBranch: z.string(),
    repoPath: z.string().describe('The founder\'s repository'),
    headSha: Sha,
    baseSha: Sha.describe('Tip of baseBranch in the founder\'s repository'),
    mergeBase: Sha,
    dirty: z.boolean().describe('The clone has uncommitted changes or untracked files'),
    ahead: z.int().describe('Commits of the branch not in baseBranch'),
    behind: z.int().describe('Commits of baseBranch not in the branch'),
    mergedAt: z.string().nullable(),
    files: z.array(WorkspaceFile).describe('Committed changes of the branch against the merge base'),
    commits: z.array(WorkspaceCommit).describe('Commits of the branch since the merge base (the diff\'s range), newest first; at most the newest 100, `ahead` counts them all'),
  })
  .meta({ id: 'IssueWorkspace' });

export const WorkspaceDiff = z
  .object({
    diff: z.string().describe('Unified diff of the branch against its merge base with baseBranch'),
    truncated: z.boolean().describe('The diff was longer than capBytes and is cut there'),
    capBytes: z.int(),
  })
  .meta({ id: 'WorkspaceDiff' });

export const WorkspaceMerge = z
  .object({
    kind: z.enum(['fast_forward', 'merge_commit', 'up_to_date']),
    sha: Sha.describe('Tip of baseBranch after the merge'),
    previousSha: Sha,
    updatedCheckout: z.string().nullable().describe('Your checkout of baseBranch, moved along (it was clean)'),
    workspace: IssueWorkspace,
  })
  .meta({ id: 'WorkspaceMerge' });

export const DiscardWorkspaceBody = z.strictObject({
  confirm: z.boolean().optional().describe('Required when the workspace holds uncommitted changes or unmerged commits'),
});

export const WorkspaceDiscard = z.object({ discarded: z.literal(true), headSha: Sha });
