import { useMemo } from 'react';
import type { PageProps } from '../../app/page-props.js';
import { useAgents } from '../../api/hooks.js';
import { RUN_STATUSES, type HeartbeatRun } from '../../api/types.js';
import { keys } from '../../api/keys.js';
import { useCursorList } from '../../api/paging.js';
import { PageHeader, Loading, ErrorBox } from '../../components/Page.js';
import { VirtualTable } from '../../components/VirtualTable.js';
import { Pill, humanize } from '../../components/Pill.js';
import { Select } from '../../components/Field.js';
import { Button } from '../../components/Button.js';
import { EmptyState } from '../../components/EmptyState.js';
import { navigate } from '../../app/router.js';
import { duration, formatCents } from '../../app/format.js';
import { RelativeTime } from '../../components/RelativeTime.js';

// Wake reasons (main/core/issues/schema.ts WAKE_REASONS); a run's trigger is the strongest of its wakes.
const TRIGGERS = ['manual', 'schedule', 'mention', 'assignment', 'interaction_accepted', 'approval_decision'];

/** Every heartbeat, newest first, filtered by status and agent on the server and by trigger here. */
export function RunsPage({ companyId, query }: PageProps) {
  const status = query.get('status') ?? '';
  const agentId = query.get('agent') ?? '';
  const trigger = query.get('trigger') ?? '';
  const filters = { ...(status ? { status } : {}), ...(agentId ? { agentId } : {}) };
  const runs = useCursorList<HeartbeatRun>(keys.runs(companyId), `/api/companies/${companyId}/heartbeat-runs`, filters);
  const agents = useAgents(companyId);
  const names = useMemo(() => new Map((agents.data ?? []).map((a) => [a.id, a.name])), [agents.data]);
  const all = runs.items;
  const rows = trigger ? all.filter((r) => r.trigger === trigger) : all;
  const triggers = useMemo(() => [...new Set([...TRIGGERS, ...all.map((r) => r.trigger)])], [all]);
  const set = (k: string, v: string) => navigate('/runs', { status, agent: agentId, trigger, [k]: v || undefined }, true);
  const filtered = !!(status || agentId || trigger);
  return (
    <div className="page">
      <PageHeader title="Runs" subtitle="Every heartbeat: what woke the agent, what it printed, what it cost." />
      <div className="filters" role="search" aria-label="Filter runs">
        <Select label="Status" value={status} onChange={(e) => set('status', e.target.value)} options={[{ value: '', label: 'Any status' }, ...RUN_STATUSES.map((s) => ({ value: s, label: humanize(s) }))]} />
        <Select label="Agent" value={agentId} onChange={(e) => set('agent', e.target.value)} options={[{ value: '', label: 'Any agent' }, ...(agents.data ?? []).map((a) => ({ value: a.id, label: a.name }))]} />
        <Select label="Trigger" value={trigger} onChange={(e) => set('trigger', e.target.value)} options={[{ value: '', label: 'Any trigger' }, ...triggers.map((t) => ({ value: t, label: humanize(t) }))]} />
        {filtered ? <Button variant="ghost" size="sm" onClick={() => navigate('/runs', {}, true)}>Clear filters</Button> : null}
      </div>
      {runs.isPending ? (
        <Loading />
      ) : runs.isError ? (
        <ErrorBox error={runs.error} retry={() => void runs.refetch()} />
      ) : (
        <>
          <div className="card card-flush">
            <VirtualTable<HeartbeatRun>
              label="Runs"
              rows={rows}
              hasMore={runs.hasMore}
              loadingMore={runs.loadingMore}
              loadMore={runs.loadMore}
              rowKey={(r) => r.id}
              onRowClick={(r) => navigate(`/runs/${r.id}`)}
              empty={
                filtered ? (
                  <EmptyState title="No runs match these filters" action={<Button onClick={() => navigate('/runs', {}, true)}>Clear filters</Button>} />
                ) : (
                  <EmptyState title="No runs yet">Runs appear when an agent wakes: invoke a heartbeat from an agent's page or assign it an issue.</EmptyState>
                )
              }
              columns={[
                { key: 'status', header: 'Status', render: (r) => <Pill status={r.status} /> },
                { key: 'agent', header: 'Agent', render: (r) => names.get(r.agentId) ?? '—' },
                { key: 'trigger', header: 'Trigger', render: (r) => humanize(r.trigger) },
                { key: 'started', header: 'Started', render: (r) => <RelativeTime iso={r.startedAt ?? r.queuedAt} /> },
                { key: 'duration', header: 'Duration', render: (r) => duration(r.startedAt, r.finishedAt) },
                { key: 'error', header: 'Outcome', render: (r) => <span className="muted ellipsis" title={r.errorMessage ?? r.summary ?? ''}>{r.errorCode ?? (r.summary ? r.summary.slice(0, 60) : '')}</span> },
                { key: 'cost', header: 'Cost', align: 'right', render: (r) => (r.costStatus === 'unpriced' ? 'unpriced' : formatCents(r.costCents)) },
              ]}
            />
          </div>
        </>
      )}
    </div>
  );
}
