import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents, useProjects } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { ISSUE_PRIORITIES, ISSUE_STATUSES, type Issue, type IssueDetail } from '../../api/types.js';
import { PageHeader, Section, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Pill, humanize } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { Select } from '../../components/Field.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { href } from '../../app/router.js';
import { agentOptions } from './IssueForm.js';
import { Timeline } from './timeline/Timeline.js';
import { EditableTitle } from './EditableTitle.js';
import { EditableDescription } from './EditableDescription.js';
import { IssueActions } from './IssueActions.js';
import { Interactions } from './Interactions.js';
import { Workspace } from './Workspace.js';
import { ProjectRepository } from './ProjectRepository.js';
import { Documents } from './Documents.js';
import { Attachments } from './Attachments.js';
import { Dependencies, IssueLabels } from './Dependencies.js';
import { BlockedMarker } from './IssueLinks.js';

export function IssueDetailPage({ companyId, params, query }: PageProps) {
  const api = useApi();
  const ref = params.issueId!;
  const issue = useQuery({ queryKey: keys.issue(ref), queryFn: () => api.get<IssueDetail>(`/api/issues/${ref}`) });
  const agents = useAgents(companyId);
  const projects = useProjects(companyId);

  const patch = useAction((body: Record<string, unknown>) => api.patch<Issue>(`/api/issues/${ref}`, body), {
    errorTitle: 'Could not update the issue',
    invalidate: [keys.issue(ref), keys.issues(companyId)],
  });
  const release = useAction(() => api.post<Issue>(`/api/issues/${ref}/release`), { success: 'Checkout released', invalidate: [keys.issue(ref)] });

  if (issue.isPending) return <div className="page"><Loading /></div>;
  if (issue.isError) return <div className="page"><ErrorBox error={issue.error} retry={() => void issue.refetch()} /></div>;
  const i = issue.data;
  const name = (id: string | null) => (id ? agents.data?.find((a) => a.id === id)?.name ?? 'Agent' : null);

  return (
    <div className="page">
      <div className="muted" style={{ marginBottom: 6 }}>
        <a href={href('/issues')}>Issues</a>
        {i.ancestors.slice().reverse().map((a) => (
          <span key={a.id}> / <a href={href(`/issues/${a.identifier}`)}>{a.identifier}</a></span>
        ))}
        {' / '}<span className="mono">{i.identifier}</span>
      </div>
      <PageHeader
        title={<EditableTitle issueRef={ref} companyId={companyId} title={i.title} />}
        subtitle={
          <span className="row">
            <Pill status={i.status} />
            <Pill status={i.priority} />
            <BlockedMarker issue={i} />
            <span>
              opened <RelativeTime iso={i.createdAt} /> by {i.createdByType === 'agent' ? name(i.createdById) ?? 'an agent' : i.createdByType === 'board' ? 'you' : 'Headcount'}
            </span>
          </span>
        }
        actions={<IssueActions issue={i} issueRef={ref} companyId={companyId} />}
      />
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 280px', gap: 20, alignItems: 'start' }}>
        <div>
          <Section title="Description">
            <EditableDescription issueRef={ref} companyId={companyId} description={i.description} />
          </Section>
          <Interactions issueId={i.id} focusId={query.get('interaction')} />
          <Timeline companyId={companyId} issueId={i.id} issueRef={i.identifier} agents={agents.data ?? []} />
          <Documents issue={i} focusKey={query.get('doc')} />
          <Attachments issue={i} />
          <Dependencies issue={i} companyId={companyId} />
          <Workspace issueId={i.id} />
        </div>
        <aside className="stack" aria-label="Issue properties">
          <Card>
            <div className="form">
              <Select label="Status" value={i.status} onChange={(e) => patch.mutate({ status: e.target.value })} options={ISSUE_STATUSES.map((s) => ({ value: s, label: humanize(s) }))} />
              <Select label="Priority" value={i.priority} onChange={(e) => patch.mutate({ priority: e.target.value })} options={ISSUE_PRIORITIES.map((p) => ({ value: p, label: p }))} />
              <Select label="Assignee" value={i.assigneeAgentId ?? ''} onChange={(e) => patch.mutate({ assigneeAgentId: e.target.value || null })} options={agentOptions(agents.data)} />
              <Select label="Project" value={i.projectId ?? ''} onChange={(e) => patch.mutate({ projectId: e.target.value || null })} options={[{ value: '', label: 'None' }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]} />
            </div>
          </Card>
          <IssueLabels issue={i} companyId={companyId} onChange={(labelIds) => patch.mutate({ labelIds })} />
          {(() => {
            const project = projects.data?.find((p) => p.id === i.projectId);
            return project ? <ProjectRepository project={project} companyId={companyId} /> : null;
          })()}
          <Card>
            <dl className="kv" style={{ gridTemplateColumns: '96px minmax(0,1fr)', margin: 0 }}>
              <dt>Checkout</dt>
              <dd>
                {i.checkoutAgentId ? (
                  <span className="stack-sm">
                    <span><a href={href(`/agents/${i.checkoutAgentId}`)}>{name(i.checkoutAgentId)}</a> since <RelativeTime iso={i.checkedOutAt} /></span>
                    {i.checkoutRunId ? <a href={href(`/runs/${i.checkoutRunId}`)}>Open the run</a> : null}
                    <span><Button size="sm" busy={release.isPending} onClick={() => release.mutate(undefined)}>Release</Button></span>
                  </span>
                ) : (
                  <span className="faint">Not checked out</span>
                )}
              </dd>
              <dt>Started</dt><dd><RelativeTime iso={i.started_at} /></dd>
              <dt>Completed</dt><dd><RelativeTime iso={i.completed_at} /></dd>
              <dt>Goal</dt><dd>{i.goal?.title ?? '—'}</dd>
              <dt>Billing code</dt><dd>{i.billingCode ?? '—'}</dd>
            </dl>
          </Card>
        </aside>
      </div>
    </div>
  );
}
