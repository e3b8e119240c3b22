import type { PageProps } from '../../app/page-props.js';
import { useAgents, useApprovals } from '../../api/hooks.js';
import type { Approval } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox } from '../../components/Page.js';
import { Table } from '../../components/Table.js';
import { Pill, humanize } from '../../components/Pill.js';
import { EmptyState } from '../../components/EmptyState.js';
import { navigate } from '../../app/router.js';
import { RelativeTime } from '../../components/RelativeTime.js';


const FILTERS = [
  { value: 'pending', label: 'Pending' },
  { value: 'revision_requested', label: 'Revision requested' },
  { value: 'approved,rejected', label: 'Decided' },
  { value: '', label: 'All' },
];

export function approvalTitle(a: Approval): string {
  const p = a.payload;
  if (a.type === 'hire_agent') return `Hire ${typeof p.name === 'string' ? p.name : 'an agent'}${typeof p.role === 'string' && p.role ? ` (${p.role})` : ''}`;
  return typeof p.title === 'string' ? p.title : 'CEO strategy';
}

export function ApprovalsPage({ companyId, query }: PageProps) {
  const raw = query.get('status') ?? 'pending';
  const status = raw === 'all' ? '' : raw;
  const approvals = useApprovals(companyId, status || undefined);
  const agents = useAgents(companyId);
  const name = (id: string | null) => (id ? agents.data?.find((a) => a.id === id)?.name ?? 'Agent' : 'Board');
  return (
    <div className="page">
      <PageHeader title="Approvals" subtitle="Hires and CEO strategies wait here for your decision." />
      <div className="segmented" role="group" aria-label="Filter approvals" style={{ marginBottom: 12 }}>
        {FILTERS.map((f) => (
          <button key={f.value} type="button" aria-pressed={status === f.value} onClick={() => navigate('/approvals', { status: f.value === '' ? 'all' : f.value }, true)}>
            {f.label}
          </button>
        ))}
      </div>
      {approvals.isPending ? (
        <Loading />
      ) : approvals.isError ? (
        <ErrorBox error={approvals.error} retry={() => void approvals.refetch()} />
      ) : (
        <div className="card card-flush">
          <Table<Approval>
            label="Approvals"
            rows={approvals.data}
            rowKey={(a) => a.id}
            onRowClick={(a) => navigate(`/approvals/${a.id}`)}
            empty={
              <EmptyState title={status === 'pending' ? 'Nothing to decide' : 'No approvals here'}>
                {status === 'pending' ? 'When an agent asks to hire or proposes a strategy, it shows up here. You can also request a hire from the Agents page.' : 'Try another filter.'}
              </EmptyState>
            }
            columns={[
              { key: 'type', header: 'Type', render: (a) => <Pill tone="violet">{a.type === 'hire_agent' ? 'Hire' : 'Strategy'}</Pill> },
              { key: 'title', header: 'Request', render: (a) => approvalTitle(a) },
              { key: 'by', header: 'Requested by', render: (a) => name(a.requestedByAgentId) },
              { key: 'status', header: 'Status', render: (a) => <Pill status={a.status}>{humanize(a.status)}</Pill> },
              { key: 'at', header: 'Created', render: (a) => <RelativeTime iso={a.createdAt} /> },
            ]}
          />
        </div>
      )}
    </div>
  );
}
