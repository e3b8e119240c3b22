import { useState } from 'react';
import type { PageProps } from '../../app/page-props.js';
import { useAgents } from '../../api/hooks.js';
import type { Agent } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox } from '../../components/Page.js';
import { Table } from '../../components/Table.js';
import { Pill } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Checkbox } from '../../components/Field.js';
import { formatBudget, formatCents } from '../../app/format.js';
import { navigate } from '../../app/router.js';
import { HireDialog } from './AgentForm.js';
import { adapterLabel } from '../../app/adapter-label.js';

export function AgentsPage({ companyId, query }: PageProps) {
  const agents = useAgents(companyId);
  const [hiring, setHiring] = useState(query.get('hire') === '1');
  const [showTerminated, setShowTerminated] = useState(false);
  const names = new Map((agents.data ?? []).map((a) => [a.id, a.name]));
  const rows = (agents.data ?? []).filter((a) => showTerminated || a.status !== 'terminated');
  return (
    <div className="page">
      <PageHeader
        title="Agents"
        subtitle="Your team: how each agent runs, what it spends, who it reports to."
        actions={<Button variant="primary" onClick={() => setHiring(true)}>Hire agent</Button>}
      />
      {agents.isPending ? (
        <Loading />
      ) : agents.isError ? (
        <ErrorBox error={agents.error} retry={() => void agents.refetch()} />
      ) : (
        <>
          <div className="filters">
            <Checkbox label="Show terminated agents" checked={showTerminated} onChange={(e) => setShowTerminated(e.target.checked)} />
          </div>
          <div className="card card-flush">
            <Table<Agent>
              label="Agents"
              rows={rows}
              rowKey={(a) => a.id}
              onRowClick={(a) => navigate(`/agents/${a.id}`)}
              empty={
                <EmptyState title="No agents yet" action={<Button variant="primary" onClick={() => setHiring(true)}>Hire agent</Button>}>
                  Hire your first agent: choose how it runs (a CLI on this computer or a webhook) and its budget.
                </EmptyState>
              }
              columns={[
                { key: 'name', header: 'Name', render: (a) => <strong>{a.name}</strong> },
                { key: 'title', header: 'Title', render: (a) => a.title || a.role || '—' },
                { key: 'status', header: 'Status', render: (a) => <Pill status={a.status}>{a.status === 'paused' && a.pauseReason === 'budget' ? 'paused · budget' : undefined}</Pill> },
                { key: 'adapter', header: 'Adapter', render: (a) => adapterLabel(a.adapterType) },
                { key: 'reports', header: 'Reports to', render: (a) => (a.reportsTo ? names.get(a.reportsTo) ?? '—' : '—') },
                { key: 'spent', header: 'Spent / budget', align: 'right', render: (a) => `${formatCents(a.spentMonthlyCents)} / ${formatBudget(a.budgetMonthlyCents)}` },
              ]}
            />
          </div>
        </>
      )}
      <HireDialog companyId={companyId} open={hiring} onClose={() => setHiring(false)} />
    </div>
  );
}
