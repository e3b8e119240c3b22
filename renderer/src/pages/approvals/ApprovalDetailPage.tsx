import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { ApprovalComment, ApprovalDetail, Issue } from '../../api/types.js';
import { PageHeader, Section, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Pill, humanize } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { Textarea } from '../../components/Field.js';
import { formatBudget } from '../../app/format.js';
import { href } from '../../app/router.js';
import { approvalTitle } from './ApprovalsPage.js';
import { HireRunsAs } from './HireRunsAs.js';
import { Markdown } from '../../components/Markdown.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

type Decision = 'approve' | 'reject' | 'request-revision';
const DECISION_DONE: Record<Decision, string> = { approve: 'Approved', reject: 'Rejected', 'request-revision': 'Revision requested' };

export function ApprovalDetailPage({ companyId, params }: PageProps) {
  const api = useApi();
  const id = params.approvalId!;
  const approval = useQuery({ queryKey: keys.approval(id), queryFn: () => api.get<ApprovalDetail>(`/api/approvals/${id}`) });
  const issues = useQuery({ queryKey: keys.approval(id, 'issues'), queryFn: () => allArrayPages<Issue>(api, `/api/approvals/${id}/issues`) });
  const comments = useQuery({ queryKey: keys.approval(id, 'comments'), queryFn: () => allArrayPages<ApprovalComment>(api, `/api/approvals/${id}/comments`) });
  const agents = useAgents(companyId);
  const [note, setNote] = useState('');
  const [comment, setComment] = useState('');
  const decide = useAction((d: Decision) => api.post<ApprovalDetail>(`/api/approvals/${id}/${d}`, note.trim() ? { decisionNote: note.trim() } : {}), {
    errorTitle: 'Could not record the decision',
    success: (r) => DECISION_DONE[r.status === 'approved' ? 'approve' : r.status === 'rejected' ? 'reject' : 'request-revision'],
    invalidate: [keys.approval(id), keys.approvals(companyId), keys.agents(companyId)],
    onSuccess: () => setNote(''),
  });
  const addComment = useAction((body: string) => api.post<ApprovalComment>(`/api/approvals/${id}/comments`, { body }), {
    invalidate: [keys.approval(id, 'comments')],
    onSuccess: () => setComment(''),
  });

  if (approval.isPending) return <div className="page"><Loading /></div>;
  if (approval.isError) return <div className="page"><ErrorBox error={approval.error} retry={() => void approval.refetch()} /></div>;
  const a = approval.data;
  const p = a.payload;
  const name = (aid: string | null) => (aid ? agents.data?.find((x) => x.id === aid)?.name ?? 'Agent' : 'the board');
  const pending = a.status === 'pending';

  return (
    <div className="page">
      <div className="muted" style={{ marginBottom: 6 }}><a href={href('/approvals')}>Approvals</a></div>
      <PageHeader title={approvalTitle(a)} subtitle={<span className="row"><Pill status={a.status}>{humanize(a.status)}</Pill> requested by {name(a.requestedByAgentId)} · <RelativeTime iso={a.createdAt} /></span>} />
      <div style={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) 320px', gap: 20, alignItems: 'start' }}>
        <div>
          <Section title="Request">
            <Card>
              {a.type === 'hire_agent' ? (
                <dl className="kv" style={{ margin: 0 }}>
                  <dt>Name</dt><dd>{String(p.name ?? '—')}</dd>
                  <dt>Role</dt><dd>{String(p.role ?? '—')}</dd>
                  <dt>Title</dt><dd>{String(p.title ?? '—')}</dd>
                  <dt>Reports to</dt><dd>{typeof p.reportsTo === 'string' ? name(p.reportsTo) : 'Nobody (top of the org)'}</dd>
                  <dt>Monthly budget</dt><dd>{typeof p.budgetMonthlyCents === 'number' ? formatBudget(p.budgetMonthlyCents) : '—'}</dd>
                  <dt>Capabilities</dt><dd className="markdown">{String(p.capabilities || '—')}</dd>
                  {p.reason ? (<><dt>Why</dt><dd><Markdown>{String(p.reason)}</Markdown></dd></>) : null}
                  {a.hireAgentId ? (<><dt>Draft agent</dt><dd><a href={href(`/agents/${a.hireAgentId}`)}>Open</a></dd></>) : null}
                </dl>
              ) : (
                <div className="stack-sm">
                  {p.horizon ? <div className="muted">Horizon: {String(p.horizon)}</div> : null}
                  {/* A strategy payload is free-form: the conventional markdown field if there is one, else the whole object. */}
                  {typeof p.strategyMarkdown === 'string' ? (
                    <Markdown>{p.strategyMarkdown}</Markdown>
                  ) : (
                    <pre className="mono" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{JSON.stringify(p, null, 2)}</pre>
                  )}
                </div>
              )}
            </Card>
          </Section>
          {a.type === 'hire_agent' ? (
            <Section title="What it will run">
              <Card>
                <HireRunsAs companyId={companyId} adapterType={p.adapterType} adapterConfig={p.adapterConfig} />
              </Card>
            </Section>
          ) : null}
          <Section title="Linked issues">
            {(issues.data ?? []).length === 0 ? (
              <div className="faint">No linked issues.</div>
            ) : (
              <div className="list">
                {issues.data!.map((i) => (
                  <a key={i.id} className="list-item" href={href(`/issues/${i.identifier}`)}>
                    <span className="mono faint">{i.identifier}</span>
                    <span className="grow">{i.title}</span>
                    <Pill status={i.status} />
                  </a>
                ))}
              </div>
            )}
          </Section>
          <Section title="Comments">
            <div className="stack">
              {(comments.data ?? []).map((c) => (
                <Card key={c.id}>
                  <div className="muted" style={{ fontSize: 12, marginBottom: 4 }}><strong style={{ color: 'var(--text)' }}>{c.authorType === 'board' ? 'You' : name(c.authorAgentId)}</strong> · <RelativeTime iso={c.createdAt} /></div>
                  <Markdown>{c.body}</Markdown>
                </Card>
              ))}
              <form className="stack-sm" onSubmit={(e) => (e.preventDefault(), comment.trim() && addComment.mutate(comment.trim()))}>
                <Textarea label="Add a comment" rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />
                <div><Button type="submit" size="sm" busy={addComment.isPending} disabled={!comment.trim()}>Comment</Button></div>
              </form>
            </div>
          </Section>
        </div>
        <aside className="stack" aria-label="Decision and history">
          <section aria-label="Decision">
          <Card>
            {pending ? (
              <div className="form">
                <Textarea label="Decision note" rows={3} value={note} onChange={(e) => setNote(e.target.value)} hint="Optional; the requester sees it." />
                <div className="row-wrap">
                  <Button variant="primary" busy={decide.isPending && decide.variables === 'approve'} disabled={decide.isPending} onClick={() => decide.mutate('approve')}>Approve</Button>
                  <Button busy={decide.isPending && decide.variables === 'request-revision'} disabled={decide.isPending} onClick={() => decide.mutate('request-revision')}>Request revision</Button>
                  <Button variant="danger" busy={decide.isPending && decide.variables === 'reject'} disabled={decide.isPending} onClick={() => decide.mutate('reject')}>Reject</Button>
                </div>
              </div>
            ) : (
              <div className="stack-sm">
                <div><Pill status={a.status}>{humanize(a.status)}</Pill> {a.decidedAt ? <RelativeTime iso={a.decidedAt} /> : null}</div>
                {a.decisionNote ? <Markdown>{a.decisionNote}</Markdown> : <div className="faint">No note.</div>}
              </div>
            )}
          </Card>
          </section>
          <Section title="History">
            <div className="list">
              {a.history.map((h, i) => (
                <div key={i} className="list-item" style={{ alignItems: 'flex-start' }}>
                  <div className="grow">
                    <div>{h.fromStatus ? `${humanize(h.fromStatus)} → ` : ''}{humanize(h.toStatus)}</div>
                    {h.note ? <div className="muted">{h.note}</div> : null}
                  </div>
                  <span className="faint"><RelativeTime iso={h.createdAt} /></span>
                </div>
              ))}
            </div>
          </Section>
        </aside>
      </div>
    </div>
  );
}
