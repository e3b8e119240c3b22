import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { keys } from '../../api/keys.js';
import type { AgentCosts, CostSummary, ProjectCosts } from '../../api/types.js';
import { PageHeader, Section, Stat, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Select } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { BudgetBar } from '../../components/BudgetBar.js';
import { Table } from '../../components/Table.js';
import { Pill } from '../../components/Pill.js';
import { formatBudget, formatCents, percent } from '../../app/format.js';
import { navigate } from '../../app/router.js';
import { useAction } from '../../api/hooks.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input } from '../../components/Field.js';
import { centsToDollars, dollarsToCents } from '../../app/money.js';
import type { Company } from '../../api/types.js';
import { recentMonths } from './months.js';

function CostChart({ data, label }: { data: { name: string; spentCents: number }[]; label: string }) {
  if (data.every((d) => d.spentCents === 0)) return <EmptyState title="No spend recorded">Costs appear here once agents report usage from their heartbeats.</EmptyState>;
  return (
    <div role="img" aria-label={`${label}: ${data.map((d) => `${d.name} ${formatCents(d.spentCents)}`).join(', ')}`} style={{ width: '100%', height: Math.max(160, data.length * 36 + 40) }}>
      <ResponsiveContainer>
        <BarChart data={data} layout="vertical" margin={{ left: 8, right: 24, top: 4, bottom: 4 }}>
          <CartesianGrid horizontal={false} stroke="var(--border)" />
          <XAxis type="number" tickFormatter={(v: number) => formatCents(v)} stroke="var(--text-faint)" fontSize={11} />
          <YAxis type="category" dataKey="name" width={120} stroke="var(--text-faint)" fontSize={12} />
          <Tooltip
            formatter={(v) => formatCents(Number(v))}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12, color: 'var(--text)' }}
            cursor={{ fill: 'var(--bg-hover)' }}
          />
          <Bar dataKey="spentCents" name="Spent" fill="var(--accent)" radius={[0, 3, 3, 0]} maxBarSize={22} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function CostsPage({ companyId, query }: PageProps) {
  const api = useApi();
  const months = recentMonths(new Date(), 12);
  const month = query.get('month') ?? months[0]!;
  const q = { month };
  const summary = useQuery({ queryKey: [...keys.costs(companyId, 'summary'), month], queryFn: () => api.get<CostSummary>(`/api/companies/${companyId}/costs/summary`, q) });
  const byAgent = useQuery({ queryKey: [...keys.costs(companyId, 'by-agent'), month], queryFn: () => api.get<AgentCosts[]>(`/api/companies/${companyId}/costs/by-agent`, q) });
  const byProject = useQuery({ queryKey: [...keys.costs(companyId, 'by-project'), month], queryFn: () => api.get<ProjectCosts[]>(`/api/companies/${companyId}/costs/by-project`, q) });

  if (summary.isPending) return <div className="page"><Loading /></div>;
  if (summary.isError) return <div className="page"><ErrorBox error={summary.error} retry={() => void summary.refetch()} /></div>;
  const s = summary.data;
  const agents = byAgent.data ?? [];
  const projects = byProject.data ?? [];
  const tokens = agents.reduce((n, a) => n + a.inputTokens + a.outputTokens, 0);

  return (
    <div className="page">
      <PageHeader
        title="Costs"
        subtitle={`Spend in ${s.month} (UTC). Budgets alert at 80% and pause agents at 100%.`}
        actions={
          <div style={{ width: 160 }}>
            <Select label="Month" value={month} onChange={(e) => navigate('/costs', { month: e.target.value === months[0] ? undefined : e.target.value }, true)} options={months.map((m) => ({ value: m, label: m }))} />
          </div>
        }
      />
      <div className="grid-4" style={{ marginBottom: 24 }}>
        <Stat label="Spent" value={formatCents(s.spentCents)} hint={s.budgetMonthlyCents ? `of ${formatCents(s.budgetMonthlyCents)}` : 'no company limit'} />
        <Stat label="Utilization" value={percent(s.utilization)} hint={<Pill status={s.status} />} />
        <Stat label="Tokens" value={tokens.toLocaleString()} hint="input + output" />
        <Stat label="Cost events" value={agents.reduce((n, a) => n + a.events, 0)} />
      </div>
      <Section title="Budgets" actions={<CompanyBudget companyId={companyId} budgetCents={s.budgetMonthlyCents} />}>
        <Card>
          <div className="stack">
            <BudgetBar label="Company" spentCents={s.spentCents} budgetCents={s.budgetMonthlyCents} />
            {agents.map((a) => (
              <BudgetBar key={a.agentId} label={a.name} spentCents={a.spentCents} budgetCents={a.budgetMonthlyCents} />
            ))}
          </div>
        </Card>
      </Section>
      <div className="grid-2">
        <Section title="By agent">
          <Card>{byAgent.isError ? <ErrorBox error={byAgent.error} /> : <CostChart label="Spend by agent" data={agents.map((a) => ({ name: a.name, spentCents: a.spentCents }))} />}</Card>
        </Section>
        <Section title="By project">
          <Card>{byProject.isError ? <ErrorBox error={byProject.error} /> : <CostChart label="Spend by project" data={projects.map((p) => ({ name: p.name, spentCents: p.spentCents }))} />}</Card>
        </Section>
      </div>
      <Section title="Details">
        <div className="card card-flush">
          <Table<AgentCosts>
            label="Costs by agent"
            rows={agents}
            rowKey={(a) => a.agentId}
            onRowClick={(a) => navigate(`/agents/${a.agentId}`)}
            empty={<EmptyState title="No agents">Hire an agent to see its costs.</EmptyState>}
            columns={[
              { key: 'name', header: 'Agent', render: (a) => a.name },
              { key: 'spent', header: 'Spent', align: 'right', render: (a) => formatCents(a.spentCents) },
              { key: 'budget', header: 'Budget', align: 'right', render: (a) => formatBudget(a.budgetMonthlyCents) },
              { key: 'util', header: 'Used', align: 'right', render: (a) => percent(a.utilization) },
              { key: 'in', header: 'Input tokens', align: 'right', render: (a) => a.inputTokens.toLocaleString() },
              { key: 'out', header: 'Output tokens', align: 'right', render: (a) => a.outputTokens.toLocaleString() },
            ]}
          />
        </div>
      </Section>
    </div>
  );
}

/** The company's monthly budget (spec 4.5: PATCH the company); agents' budgets are set on their pages. */
function CompanyBudget({ companyId, budgetCents }: { companyId: string; budgetCents: number }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useAction((cents: number) => api.patch<Company>(`/api/companies/${companyId}`, { budgetMonthlyCents: cents }), {
    success: 'Company budget saved',
    errorTitle: 'Could not save the budget',
    invalidate: [keys.costs(companyId), keys.company(companyId)],
    onSuccess: () => setOpen(false),
  });
  const submit = () => {
    const cents = dollarsToCents(value);
    if (cents === null) return setError('Enter dollars, like 200 or 49.50; empty for no limit');
    setError(null);
    save.mutate(cents);
  };
  return (
    <>
      <Button size="sm" onClick={() => (setValue(centsToDollars(budgetCents)), setOpen(true))}>Set company budget</Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Company monthly budget"
        footer={
          <>
            <Button variant="ghost" onClick={() => setOpen(false)}>Cancel</Button>
            <Button variant="primary" busy={save.isPending} onClick={submit}>Save</Button>
          </>
        }
      >
        <form onSubmit={(e) => (e.preventDefault(), submit())}>
          <Input label="Monthly budget (USD)" value={value} onChange={(e) => setValue(e.target.value)} placeholder="No limit" error={error} hint="At 80% agents are warned; at 100% every agent of the company is paused until the month ends or the budget is raised." autoFocus />
        </form>
      </Dialog>
    </>
  );
}
