import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAgents, useCompany, useCostSummary, useInbox, useIssues, useRuns } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Page } from '../../api/types.js';
import { PageHeader, Section, Stat, Loading, ErrorBox, Card } from '../../components/Page.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { BudgetBar } from '../../components/BudgetBar.js';
import { formatCents, duration } from '../../app/format.js';
import { href, navigate } from '../../app/router.js';
import { KIND_LABEL, KIND_TONE } from '../inbox/actions.js';
import { RelativeTime } from '../../components/RelativeTime.js';

interface ActivityRow {
  id: string;
  entityId: string;
  entityType: string;
  action: string;
  summary: string;
  actorType: 'board' | 'agent' | 'system';
  actorId: string | null;
  createdAt: string;
}

/** Where an activity entry leads, when it names something the board has a page for. */
function activityHref(a: ActivityRow): string | null {
  const pages: Record<string, string> = { issue: '/issues/', agent: '/agents/', approval: '/approvals/', heartbeat_run: '/runs/', run: '/runs/' };
  const base = pages[a.entityType];
  return base ? `${base}${a.entityId}` : null;
}

function RecentActivity({ activity, agentName }: { activity: Page<ActivityRow> | undefined; agentName: (id: string) => string }) {
  const items = activity?.items ?? [];
  return (
    <Section title="Recent activity">
      {!activity ? (
        <Loading />
      ) : items.length === 0 ? (
        <EmptyState title="No activity yet">What you and your agents do shows up here as it happens.</EmptyState>
      ) : (
        <div className="list" role="list" aria-label="Recent activity">
          {items.map((a) => {
            const to = activityHref(a);
            const body = (
              <>
                <span className="grow ellipsis" title={a.summary}>
                  <span className="muted">{a.actorType === 'agent' && a.actorId ? agentName(a.actorId) : a.actorType === 'board' ? 'You' : 'Headcount'}:</span> {a.summary}
                </span>
                <span className="faint" style={{ fontSize: 12, whiteSpace: 'nowrap' }}><RelativeTime iso={a.createdAt} /></span>
              </>
            );
            return (
              <div key={a.id} role="listitem">
                {to ? <a className="list-item" href={href(to)}>{body}</a> : <div className="list-item">{body}</div>}
              </div>
            );
          })}
        </div>
      )}
    </Section>
  );
}

export function DashboardPage({ companyId }: PageProps) {
  const company = useCompany(companyId);
  const agents = useAgents(companyId);
  const summary = useCostSummary(companyId);
  const needsYou = useInbox(companyId);
  const blocked = useIssues(companyId, { status: 'blocked' });
  const open = useIssues(companyId, { status: 'todo,in_progress,in_review,blocked' });
  const runs = useRuns(companyId, { limit: 50 });
  // Asked for with the rest, not once the page has drawn: it was the last request of a first paint.
  const api = useApi();
  const activity = useQuery({ queryKey: keys.activity(companyId), queryFn: () => api.get<Page<ActivityRow>>(`/api/companies/${companyId}/activity`, { limit: 15 }) });

  const names = useMemo(() => new Map((agents.data ?? []).map((a) => [a.id, a.name])), [agents.data]);
  const agentName = (id: string) => names.get(id) ?? 'Unknown agent';
  const running = (agents.data ?? []).filter((a) => a.status === 'running');
  const activeRuns = (runs.data?.items ?? []).filter((r) => r.status === 'running' || r.status === 'queued');

  // The inbox API decides what needs the founder; the dashboard shows its newest items.
  const inbox = needsYou.data?.items ?? [];

  // The page draws once the company is known; each part fills in as its own answer arrives (at
  // 100,000 issues and 200 agents, waiting for the agents held the whole page for a second).
  if (company.isPending) return <div className="page"><Loading /></div>;

  const s = summary.data;
  const team = agents.data?.filter((a) => a.status !== 'terminated').length;
  return (
    <div className="page">
      <PageHeader title={company.data?.name ?? 'Dashboard'} subtitle={company.data?.description || 'What your company is doing right now'} />
      {agents.isError ? <ErrorBox error={agents.error} retry={() => void agents.refetch()} /> : null}

      <div className="grid-4" style={{ marginBottom: 24 }}>
        <Stat label="Running agents" value={agents.data ? running.length : '—'} hint={team === undefined ? undefined : `${team} on the team`} />
        <Stat label="Spent this month" value={s ? formatCents(s.spentCents) : '—'} hint={s ? (s.budgetMonthlyCents ? `of ${formatCents(s.budgetMonthlyCents)}` : 'no budget limit') : undefined} />
        {/* Every open item, not the page of them the dashboard lists. */}
        <Stat label="Needs you" value={needsYou.data ? needsYou.data.count : '—'} hint="approvals, questions, failures, budgets" />
        {/* One page of up to 200: past it the count says "200+" rather than stopping silently. */}
        <Stat label="Open issues" value={open.data ? `${open.data.items.length}${open.data.nextCursor ? '+' : ''}` : '—'} hint={`${blocked.data?.items.length ?? 0}${blocked.data?.nextCursor ? '+' : ''} blocked`} />
      </div>

      <div className="grid-2">
        <div>
        <Section title="Needs you" actions={<Button size="sm" variant="ghost" onClick={() => navigate('/inbox')}>Inbox</Button>}>
          {inbox.length === 0 ? (
            <EmptyState title="Nothing waiting on you">Approvals, agent questions, blocked issues and failed runs show up here.</EmptyState>
          ) : (
            <div className="list" role="list" aria-label="Needs you">
              {inbox.slice(0, 8).map((item) => (
                <div key={item.id} role="listitem">
                  <a className="list-item" href={href(item.link.path)}>
                    <Pill tone={KIND_TONE[item.kind]}>{KIND_LABEL[item.kind]}</Pill>
                    <div className="grow">
                      <div className="ellipsis">{item.title}</div>
                      {item.summary ? <div className="muted ellipsis" style={{ fontSize: 12 }}>{item.summary}</div> : null}
                    </div>
                    <span className="faint" style={{ fontSize: 12 }}><RelativeTime iso={item.createdAt} /></span>
                  </a>
                </div>
              ))}
            </div>
          )}
        </Section>
        <RecentActivity activity={activity.data} agentName={agentName} />
        </div>

        <div>
          <Section title="Running now" actions={<Button size="sm" variant="ghost" onClick={() => navigate('/runs')}>All runs</Button>}>
            {activeRuns.length === 0 ? (
              <EmptyState title="No agent is running">Invoke a heartbeat from an agent's page, or assign an issue to wake its agent.</EmptyState>
            ) : (
              <div className="list" aria-label="Running heartbeats">
                {activeRuns.map((r) => (
                  <a key={r.id} className="list-item" href={href(`/runs/${r.id}`)}>
                    <Pill status={r.status} />
                    <span className="grow ellipsis">{agentName(r.agentId)}</span>
                    <span className="muted">{duration(r.startedAt, null)}</span>
                  </a>
                ))}
              </div>
            )}
          </Section>
          <Section title="Spend against budget" actions={<Button size="sm" variant="ghost" onClick={() => navigate('/costs')}>Costs</Button>}>
            <Card>
              <div className="stack">
                {s ? <BudgetBar label="Company" spentCents={s.spentCents} budgetCents={s.budgetMonthlyCents} /> : null}
                {(agents.data ?? [])
                  .filter((a) => a.status !== 'terminated' && (a.budgetMonthlyCents > 0 || a.spentMonthlyCents > 0))
                  .map((a) => (
                    <BudgetBar key={a.id} label={a.name} spentCents={a.spentMonthlyCents} budgetCents={a.budgetMonthlyCents} />
                  ))}
              </div>
            </Card>
          </Section>
        </div>
      </div>
    </div>
  );
}
