import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { html as diffHtml } from 'diff2html';
import 'diff2html/bundles/css/diff2html.min.css';
import './workspace.css';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { ApiError } from '../../api/client.js';
import type { IssueWorkspace, WorkspaceDiff } from '../../api/types.js';
import { Section, Card, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { desktopActions } from '../../app/desktop.js';
import { href } from '../../app/router.js';

const workspaceKey = (issueId: string) => ['issue', issueId, 'workspace'] as const;

/** The issue's own clone of the project's repository: branch, changed files, commits and their runs, diff, merge and discard. Absent when the issue has none. */
export function Workspace({ issueId }: { issueId: string }) {
  const api = useApi();
  const [showDiff, setShowDiff] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const ws = useQuery({
    queryKey: workspaceKey(issueId),
    queryFn: async () => {
      try {
        return await api.get<IssueWorkspace>(`/api/issues/${issueId}/workspace`);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    },
  });
  const diff = useQuery({ queryKey: [...workspaceKey(issueId), 'diff'], enabled: showDiff && !!ws.data, queryFn: () => api.get<WorkspaceDiff>(`/api/issues/${issueId}/workspace/diff`) });
  const handled = (err: unknown) => {
    if (err instanceof ApiError && err.status === 409) return (setProblem(err.message), true);
    return false;
  };
  const merge = useAction(() => api.post(`/api/issues/${issueId}/workspace/merge`, {}), { success: 'Merged', invalidate: [workspaceKey(issueId)], handled, onSuccess: () => setProblem(null) });
  const discard = useAction((confirm: boolean) => api.post(`/api/issues/${issueId}/workspace/discard`, { confirm }), { success: 'Workspace discarded', invalidate: [workspaceKey(issueId)], handled, onSuccess: () => setProblem(null) });
  const { openFolder } = desktopActions();
  if (ws.error) return <ErrorBox error={ws.error} />;
  const w = ws.data;
  if (!w) return null;
  const hasWork = w.dirty || w.ahead > 0;
  return (
    <Section
      title="Workspace"
      actions={
        <span className="row">
          {openFolder ? (
            <Button size="sm" onClick={() => void openFolder(w.path).then((ok) => ok || setProblem(`Could not open ${w.path}`))}>Open folder</Button>
          ) : null}
          <Button size="sm" variant="primary" busy={merge.isPending} disabled={w.ahead === 0} onClick={() => merge.mutate(undefined)}>Merge into {w.baseBranch}</Button>
          <Button size="sm" busy={discard.isPending} onClick={() => (!hasWork || window.confirm(`Discard ${w.branch}? Its uncommitted changes and unmerged commits are lost.`)) && discard.mutate(hasWork)}>Discard</Button>
        </span>
      }
    >
      <Card>
        <div className="stack" aria-label="Workspace">
          <div>
            <span className="mono">{w.branch}</span> from <span className="mono">{w.baseBranch}</span> · {w.ahead} ahead, {w.behind} behind{w.dirty ? ' · uncommitted changes' : ''}{w.mergedAt ? ' · merged' : ''}
          </div>
          <div className="faint mono">{w.path}</div>
          {problem ? <div role="alert" className="error">{problem}</div> : null}
          {w.files.length === 0 ? (
            <div className="faint">No committed changes yet.</div>
          ) : (
            <ul aria-label="Changed files" style={{ margin: 0, paddingLeft: 18 }}>
              {w.files.map((f) => (
                <li key={f.path}>
                  <span className="mono">{f.path}</span> <span className="faint">{f.status}{f.additions === null ? ' · binary' : ` · +${f.additions} −${f.deletions}`}</span>
                </li>
              ))}
            </ul>
          )}
          {w.commits.length ? (
            <div>
              <div className="workspace-heading">Commits{w.ahead > w.commits.length ? ` (newest ${w.commits.length} of ${w.ahead})` : ''}</div>
              <ul aria-label="Commits" className="workspace-commits">
                {w.commits.map((c) => (
                  <li key={c.sha}>
                    <span className="mono faint" title={c.sha}>{c.shortSha}</span>
                    <span className="workspace-commit-subject" title={c.subject}>{c.subject}</span>
                    <span className="faint">{c.authorName} · <RelativeTime iso={c.committedAt} /></span>
                    {c.runId ? <a href={href(`/runs/${c.runId}`)}>Run</a> : <span className="faint" title="Not made during a run of this issue, e.g. committed by hand">no run</span>}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {w.files.length ? <span><Button size="sm" onClick={() => setShowDiff(!showDiff)}>{showDiff ? 'Hide diff' : 'Show diff'}</Button></span> : null}
          {showDiff && diff.data ? (
            <>
              {diff.data.truncated ? <div className="faint">The diff is longer than {Math.round(diff.data.capBytes / 1024)} KiB and is cut there.</div> : null}
              {/* diff2html escapes the diff's text; the markup is its own. */}
              <div aria-label="Diff" className="workspace-diff" dangerouslySetInnerHTML={{ __html: diffHtml(diff.data.diff, { drawFileList: false, outputFormat: 'line-by-line', matching: 'none' }) }} />
            </>
          ) : null}
        </div>
      </Card>
    </Section>
  );
}
