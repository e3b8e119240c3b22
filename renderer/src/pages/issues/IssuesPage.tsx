import { useMemo, useRef, useState } from 'react';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents, useLabels, useProjects } from '../../api/hooks.js';
import { useCursorList } from '../../api/paging.js';
import { VirtualTable } from '../../components/VirtualTable.js';
import { BlockedMarker, LabelChips } from './IssueLinks.js';
import { keys } from '../../api/keys.js';
import { ISSUE_STATUSES, ISSUE_PRIORITIES, type Issue, type IssueStatus } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox } from '../../components/Page.js';
import { Pill, humanize } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { Select } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { navigate } from '../../app/router.js';
import { agentOptions, NewIssueDialog } from './IssueForm.js';
import { BoardColumn } from './BoardColumn.js';
import { RelativeTime } from '../../components/RelativeTime.js';

export function IssuesPage({ companyId, query }: PageProps) {
  const api = useApi();
  const view = query.get('view') === 'list' ? 'list' : 'board';
  const status = query.get('status') ?? '';
  const assignee = query.get('assignee') ?? '';
  const projectId = query.get('project') ?? '';
  const priority = query.get('priority') ?? '';
  const labelId = query.get('label') ?? '';
  // The global `c` shortcut lands here with ?create=1: open the dialog, then drop the flag so a
  // reload or the back button does not open it again.
  const [creating, setCreatingState] = useState(() => query.get('create') === '1');
  const setCreating = (open: boolean) => {
    setCreatingState(open);
    if (!open && query.get('create') === '1') navigate('/issues', { view: view === 'list' ? 'list' : undefined, status, assignee, project: projectId, priority, label: labelId }, true);
  };
  const createFlag = query.get('create') === '1';
  const [seenFlag, setSeenFlag] = useState(createFlag);
  if (createFlag !== seenFlag) {
    setSeenFlag(createFlag);
    if (createFlag) setCreatingState(true);
  }
  const [dragOver, setDragOver] = useState<IssueStatus | null>(null);
  const agents = useAgents(companyId);
  const projects = useProjects(companyId);
  const labels = useLabels(companyId);
  // The list view pages through this list; the board pages each column on its own (BoardColumn)
  // and reads one issue of it only to tell "no issues yet" from "none match".
  const issues = useCursorList<Issue>(
    keys.issues(companyId),
    `/api/companies/${companyId}/issues`,
    { status: status || undefined, assigneeAgentId: assignee || undefined, projectId: projectId || undefined, labelId: labelId || undefined },
    view === 'board' ? 1 : 100,
  );
  const dragged = useRef<Issue | null>(null);
  const names = useMemo(() => new Map((agents.data ?? []).map((a) => [a.id, a.name])), [agents.data]);
  const items = issues.items.filter((i) => !priority || i.priority === priority);
  const boardStatuses = status ? (status.split(',') as IssueStatus[]) : ISSUE_STATUSES.filter((s) => s !== 'cancelled');

  const setFilter = (key: string, value: string) => {
    const next: Record<string, string | undefined> = { view: view === 'list' ? 'list' : undefined, status, assignee, project: projectId, priority, label: labelId };
    next[key] = value || undefined;
    navigate('/issues', next, true);
  };

  const move = useAction((v: { issue: Issue; status: IssueStatus }) => api.patch<Issue>(`/api/issues/${v.issue.id}`, { status: v.status }), {
    errorTitle: 'Could not move the issue',
    invalidate: [keys.issues(companyId)],
  });

  return (
    <div className="page page-wide">
      <PageHeader
        title="Issues"
        subtitle="Units of work. Assign one to an agent to wake it."
        actions={
          <>
            <div className="segmented" role="group" aria-label="View">
              <button type="button" aria-pressed={view === 'board'} onClick={() => setFilter('view', '')}>Board</button>
              <button type="button" aria-pressed={view === 'list'} onClick={() => setFilter('view', 'list')}>List</button>
            </div>
            <Button variant="primary" onClick={() => setCreating(true)}>New issue</Button>
          </>
        }
      />
      <div className="filters" role="search" aria-label="Filter issues">
        <Select label="Status" value={status} onChange={(e) => setFilter('status', e.target.value)} options={[{ value: '', label: 'Any status' }, ...ISSUE_STATUSES.map((s) => ({ value: s, label: humanize(s) }))]} />
        <Select label="Assignee" value={assignee} onChange={(e) => setFilter('assignee', e.target.value)} options={agentOptions(agents.data, 'Anyone')} />
        <Select label="Project" value={projectId} onChange={(e) => setFilter('project', e.target.value)} options={[{ value: '', label: 'Any project' }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]} />
        <Select label="Priority" value={priority} onChange={(e) => setFilter('priority', e.target.value)} options={[{ value: '', label: 'Any priority' }, ...ISSUE_PRIORITIES.map((p) => ({ value: p, label: p }))]} />
        <Select label="Label" value={labelId} onChange={(e) => setFilter('label', e.target.value)} options={[{ value: '', label: 'Any label' }, ...(labels.data ?? []).map((l) => ({ value: l.id, label: l.name }))]} />
      </div>
      {issues.isPending ? (
        <Loading />
      ) : issues.isError ? (
        <ErrorBox error={issues.error} retry={() => void issues.refetch()} />
      ) : items.length === 0 && !issues.hasMore && !status && !assignee && !projectId && !priority && !labelId ? (
        <EmptyState title="No issues yet" action={<Button variant="primary" onClick={() => setCreating(true)}>New issue</Button>}>
          Create an issue and assign it to an agent; the agent wakes, checks it out and works on it.
        </EmptyState>
      ) : view === 'board' ? (
        <>
        <div className="board" aria-label="Issues by status">
          {boardStatuses.map((s) => (
            <BoardColumn
              key={s}
              companyId={companyId}
              status={s}
              filters={{ assigneeAgentId: assignee || undefined, projectId: projectId || undefined, labelId: labelId || undefined, priority: priority || undefined }}
              names={names}
              labels={labels.data}
              dropping={dragOver === s}
              onDragOverColumn={() => setDragOver(s)}
              onDragLeaveColumn={() => setDragOver(null)}
              onDropOnColumn={() => {
                setDragOver(null);
                const issue = dragged.current;
                dragged.current = null;
                if (issue && issue.status !== s) move.mutate({ issue, status: s });
              }}
              onDragIssue={(issue) => (dragged.current = issue)}
            />
          ))}
        </div>
        </>
      ) : (
        <div className="card card-flush">
          <VirtualTable<Issue>
            label="Issues"
            rows={items}
            hasMore={issues.hasMore}
            loadingMore={issues.loadingMore}
            loadMore={issues.loadMore}
            rowKey={(i) => i.id}
            onRowClick={(i) => navigate(`/issues/${i.identifier}`)}
            empty={<EmptyState title="No issue matches these filters">Clear a filter to see more.</EmptyState>}
            columns={[
              { key: 'id', header: 'ID', width: '90px', render: (i) => <span className="mono faint">{i.identifier}</span> },
              {
                key: 'title',
                header: 'Title',
                render: (i) => (
                  <span className="row" style={{ gap: 6, flexWrap: 'wrap' }}>
                    {i.title} <BlockedMarker issue={i} /> <LabelChips ids={i.labelIds} labels={labels.data} />
                  </span>
                ),
              },
              { key: 'status', header: 'Status', render: (i) => <Pill status={i.status} /> },
              { key: 'priority', header: 'Priority', render: (i) => <Pill status={i.priority} /> },
              { key: 'assignee', header: 'Assignee', render: (i) => (i.assigneeAgentId ? names.get(i.assigneeAgentId) ?? '—' : '—') },
              { key: 'updated', header: 'Updated', render: (i) => <RelativeTime iso={i.updatedAt} /> },
            ]}
          />
        </div>
      )}
      <NewIssueDialog companyId={companyId} open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
