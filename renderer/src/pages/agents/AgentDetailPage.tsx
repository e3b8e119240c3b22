import { useState } from 'react';
import { useQuery, type QueryKey } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents, useIssues } from '../../api/hooks.js';
import { useCursorList } from '../../api/paging.js';
import { VirtualTable } from '../../components/VirtualTable.js';
import { keys } from '../../api/keys.js';
import type { Agent, AgentKey, ConfigRevision, CreatedAgentKey, HeartbeatRun } from '../../api/types.js';
import { PageHeader, Loading, ErrorBox, Card } from '../../components/Page.js';
import { Pill } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Select } from '../../components/Field.js';
import { Table } from '../../components/Table.js';
import { EmptyState } from '../../components/EmptyState.js';
import { DiffView } from '../../components/DiffView.js';
import { BudgetBar } from '../../components/BudgetBar.js';
import { configDiff } from '../../app/config-diff.js';
import { formatBudget, formatCents, duration } from '../../app/format.js';
import { centsToDollars, dollarsToCents } from '../../app/money.js';
import { href, navigate } from '../../app/router.js';
import { useAdapterForm } from '../../forms/adapter-form.js';
import { AdapterSetup } from '../../forms/AdapterSetup.js';
import { adapterLabel } from '../../app/adapter-label.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { AgentEditDialog } from './AgentEditDialog.js';
import { allArrayPages } from '../../api/array-pages.js';

const TABS = ['overview', 'configuration', 'history', 'keys', 'runs'] as const;
type Tab = (typeof TABS)[number];

function useAgentAction(agentId: string, action: 'pause' | 'resume' | 'terminate', done: string, invalidate: QueryKey[]) {
  const api = useApi();
  return useAction(() => api.post<Agent>(`/api/agents/${agentId}/${action}`), { success: done, invalidate, errorTitle: `Could not ${action} the agent` });
}

export function AgentDetailPage({ companyId, params, query }: PageProps) {
  const api = useApi();
  const agentId = params.agentId!;
  const agent = useQuery({ queryKey: keys.agent(agentId), queryFn: () => api.get<Agent>(`/api/agents/${agentId}`) });
  const tab = (TABS as readonly string[]).includes(query.get('tab') ?? '') ? (query.get('tab') as Tab) : 'overview';
  const [confirmTerminate, setConfirmTerminate] = useState(false);
  const inv = [keys.agent(agentId), keys.agents(companyId), keys.org(companyId)];

  const pause = useAgentAction(agentId, 'pause', 'Paused: no heartbeats until resumed', inv);
  const resume = useAgentAction(agentId, 'resume', 'Resumed', inv);
  const terminate = useAgentAction(agentId, 'terminate', 'Terminated', inv);
  const [invoking, setInvoking] = useState(false);
  const [editing, setEditing] = useState(false);

  if (agent.isPending) return <div className="page"><Loading /></div>;
  if (agent.isError) return <div className="page"><ErrorBox error={agent.error} retry={() => void agent.refetch()} /></div>;
  const a = agent.data;
  const alive = a.status !== 'terminated';

  return (
    <div className="page">
      <PageHeader
        title={
          <span className="row">
            {a.name} <Pill status={a.status}>{a.status === 'paused' && a.pauseReason === 'budget' ? 'paused · budget' : undefined}</Pill>
          </span>
        }
        subtitle={`${a.title || a.role || 'Agent'} · ${adapterLabel(a.adapterType)} · @${a.urlKey}`}
        actions={
          alive ? (
            <>
              <Button variant="primary" disabled={a.status === 'draft' || a.status === 'paused'} onClick={() => setInvoking(true)}>
                Invoke heartbeat
              </Button>
              {a.status === 'paused' ? (
                <Button busy={resume.isPending} onClick={() => resume.mutate(undefined)}>Resume</Button>
              ) : (
                <Button busy={pause.isPending} disabled={a.status === 'draft'} onClick={() => pause.mutate(undefined)}>Pause</Button>
              )}
              <Button onClick={() => setEditing(true)}>Edit</Button>
              <Button variant="danger" onClick={() => setConfirmTerminate(true)}>Terminate</Button>
            </>
          ) : null
        }
      />
      {a.adapterConfig.sandbox === false ? (
        <div className="banner" role="alert">
          The sandbox is off for this agent: its processes run with your full user access and can read your data home (master key, database, every transcript) and act as the board. <a href={href(`/agents/${agentId}`, { tab: 'configuration' })}>Turn it back on</a>
        </div>
      ) : null}
      {a.status === 'draft' ? <div className="banner">This agent is a draft: its hire is waiting for approval. <a href={href('/approvals')}>Open approvals</a></div> : null}
      <div className="tabs" role="tablist" aria-label="Agent sections">
        {TABS.map((t) => (
          <button key={t} role="tab" aria-selected={t === tab} onClick={() => navigate(`/agents/${agentId}`, { tab: t === 'overview' ? undefined : t }, true)}>
            {t === 'history' ? 'Config history' : t.charAt(0).toUpperCase() + t.slice(1)}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'overview' ? <Overview agent={a} companyId={companyId} /> : null}
        {tab === 'configuration' ? <Configuration agent={a} companyId={companyId} /> : null}
        {tab === 'history' ? <History agent={a} /> : null}
        {tab === 'keys' ? <Keys agent={a} /> : null}
        {tab === 'runs' ? <AgentRuns agent={a} companyId={companyId} /> : null}
      </div>
      {invoking ? <InvokeDialog agent={a} companyId={companyId} onClose={() => setInvoking(false)} /> : null}
      {editing ? <AgentEditDialog agent={a} companyId={companyId} onClose={() => setEditing(false)} /> : null}
      <Dialog
        open={confirmTerminate}
        onClose={() => setConfirmTerminate(false)}
        title={`Terminate ${a.name}?`}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirmTerminate(false)}>Cancel</Button>
            <Button variant="danger" busy={terminate.isPending} onClick={() => terminate.mutate(undefined, { onSuccess: () => setConfirmTerminate(false) })}>Terminate</Button>
          </>
        }
      >
        Termination is permanent: running heartbeats are cancelled, its keys stop working, and it never runs again.
      </Dialog>
    </div>
  );
}

/** Starts a heartbeat now, optionally focused on one of the agent's open issues (its SERVICE_TASK_ID). */
function InvokeDialog({ agent: a, companyId, onClose }: { agent: Agent; companyId: string; onClose: () => void }) {
  const api = useApi();
  const issues = useIssues(companyId, { assigneeAgentId: a.id, status: 'backlog,todo,in_progress,in_review,blocked' });
  const [issueId, setIssueId] = useState<string | null>(null);
  const open = issues.data?.items ?? [];
  const focus = issueId ?? open[0]?.id ?? '';
  const invoke = useAction((body: { issueId?: string }) => api.post<{ wakeRequestId: string }>(`/api/agents/${a.id}/heartbeat/invoke`, body), {
    success: `Heartbeat requested for ${a.name}`,
    errorTitle: 'Could not invoke a heartbeat',
    invalidate: [keys.runs(companyId)],
    onSuccess: () => {
      onClose();
      navigate(`/agents/${a.id}`, { tab: 'runs' }, true);
    },
  });
  return (
    <Dialog
      open
      onClose={onClose}
      title={`Invoke a heartbeat of ${a.name}`}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={invoke.isPending} onClick={() => invoke.mutate(focus ? { issueId: focus } : {})}>Invoke now</Button>
        </>
      }
    >
      <Select
        label="Focus issue"
        value={focus}
        onChange={(e) => setIssueId(e.target.value)}
        options={[...open.map((i) => ({ value: i.id, label: `${i.identifier} · ${i.title}` })), { value: '', label: 'No specific issue' }]}
        hint="The agent starts with this issue (SERVICE_TASK_ID); otherwise it decides what to work on."
      />
    </Dialog>
  );
}

function Overview({ agent: a, companyId }: { agent: Agent; companyId: string }) {
  const api = useApi();
  const agents = useAgents(companyId);
  const [budget, setBudget] = useState(centsToDollars(a.budgetMonthlyCents));
  const [budgetError, setBudgetError] = useState<string | null>(null);
  const save = useAction((cents: number) => api.patch<Agent>(`/api/agents/${a.id}`, { budgetMonthlyCents: cents }), {
    success: 'Budget saved',
    invalidate: [keys.agent(a.id), keys.agents(companyId)],
  });
  const manager = a.reportsTo ? agents.data?.find((x) => x.id === a.reportsTo) : null;
  return (
    <div className="grid-2">
      <Card>
        <dl className="kv" style={{ margin: 0 }}>
          <dt>Role</dt><dd>{a.role || '—'}</dd>
          <dt>Title</dt><dd>{a.title || '—'}</dd>
          <dt>Reports to</dt><dd>{manager ? <a href={href(`/agents/${manager.id}`)}>{manager.name}</a> : 'Nobody (top of the org)'}</dd>
          <dt>Chain of command</dt><dd>{a.chainOfCommand.length ? a.chainOfCommand.map((c) => c.name).join(' → ') : '—'}</dd>
          <dt>Adapter</dt><dd>{adapterLabel(a.adapterType)}</dd>
          <dt>Shortname</dt><dd className="mono">@{a.urlKey}</dd>
          <dt>Capabilities</dt><dd className="markdown">{a.capabilities || '—'}</dd>
          <dt>Hired</dt><dd><RelativeTime iso={a.createdAt} /></dd>
        </dl>
      </Card>
      <Card>
        <div className="stack">
          <BudgetBar label="This month" spentCents={a.spentMonthlyCents} budgetCents={a.budgetMonthlyCents} />
          <form
            className="row"
            style={{ alignItems: 'flex-end' }}
            onSubmit={(e) => {
              e.preventDefault();
              const cents = dollarsToCents(budget);
              if (cents === null) return setBudgetError('Enter dollars, like 20 or 7.50');
              setBudgetError(null);
              save.mutate(cents);
            }}
          >
            <div className="grow">
              <Input label="Monthly budget (USD)" value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="No limit" error={budgetError} />
            </div>
            <Button type="submit" busy={save.isPending}>Save</Button>
          </form>
          <div className="muted">Spent {formatCents(a.spentMonthlyCents)} of {formatBudget(a.budgetMonthlyCents)}. At 100% the agent is paused until the month ends or the budget is raised.</div>
        </div>
      </Card>
    </div>
  );
}

function Configuration({ agent: a, companyId }: { agent: Agent; companyId: string }) {
  const api = useApi();
  const form = useAdapterForm(a.adapterType, a.adapterConfig);
  const save = useAction((adapterConfig: Record<string, unknown>) => api.patch<Agent>(`/api/agents/${a.id}`, { adapterConfig }), {
    success: 'Configuration saved as a new revision',
    errorTitle: 'Could not save the configuration',
    invalidate: [keys.agent(a.id), keys.agent(a.id, 'revisions')],
    handled: (err) => form.showServerError(err),
  });
  return (
    <form
      className="stack"
      style={{ maxWidth: 720 }}
      onSubmit={(e) => {
        e.preventDefault();
        try {
          save.mutate(form.build());
        } catch {
          // shown at the field
        }
      }}
    >
      <AdapterSetup companyId={companyId} adapters={[]} adapterType={a.adapterType} form={form} />
      <div>
        <Button type="submit" variant="primary" busy={save.isPending} disabled={a.status === 'terminated'}>Save configuration</Button>
      </div>
    </form>
  );
}

function History({ agent: a }: { agent: Agent }) {
  const api = useApi();
  const revisions = useQuery({ queryKey: keys.agent(a.id, 'revisions'), queryFn: () => allArrayPages<ConfigRevision>(api, `/api/agents/${a.id}/config-revisions`) });
  const rollback = useAction((rev: ConfigRevision) => api.post<Agent>(`/api/agents/${a.id}/config-revisions/${rev.id}/rollback`), {
    success: 'Configuration restored as a new revision',
    errorTitle: 'Could not roll back',
    invalidate: [keys.agent(a.id)],
  });
  if (revisions.isPending) return <Loading />;
  if (revisions.isError) return <ErrorBox error={revisions.error} />;
  const list = revisions.data;
  if (list.length === 0) return <EmptyState title="No configuration revisions">Every change to the adapter or its configuration is kept here.</EmptyState>;
  return (
    <div className="stack">
      {list.map((rev, i) => {
        const prev = list[i + 1];
        const current = i === 0;
        return (
          <Card key={rev.id}>
            <div className="row" style={{ marginBottom: 8 }}>
              <strong>Revision {rev.revisionNumber}</strong>
              <Pill tone={rev.reason === 'rollback' ? 'amber' : 'neutral'}>{rev.reason}</Pill>
              {current ? <Pill tone="green">current</Pill> : null}
              <span className="muted">by {rev.actorType} · <RelativeTime iso={rev.createdAt} /></span>
              <span className="spacer" />
              {!current && a.status !== 'terminated' ? (
                <Button size="sm" busy={rollback.isPending && rollback.variables?.id === rev.id} onClick={() => rollback.mutate(rev)}>
                  Roll back to this
                </Button>
              ) : null}
            </div>
            <DiffView
              label={`Changes in revision ${rev.revisionNumber}`}
              lines={configDiff(prev ? { adapter: adapterLabel(prev.adapterType), ...prev.adapterConfig } : {}, { adapter: adapterLabel(rev.adapterType), ...rev.adapterConfig })}
            />
          </Card>
        );
      })}
    </div>
  );
}

function Keys({ agent: a }: { agent: Agent }) {
  const api = useApi();
  const list = useQuery({ queryKey: keys.agent(a.id, 'keys'), queryFn: () => allArrayPages<AgentKey>(api, `/api/agents/${a.id}/keys`) });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedAgentKey | null>(null);
  const create = useAction((n: string) => api.post<CreatedAgentKey>(`/api/agents/${a.id}/keys`, n ? { name: n } : {}), {
    invalidate: [keys.agent(a.id, 'keys')],
    onSuccess: (k) => {
      setCreated(k);
      setName('');
    },
  });
  const revoke = useAction((k: AgentKey) => api.delete<AgentKey>(`/api/agents/${a.id}/keys/${k.id}`), { success: 'Key revoked', invalidate: [keys.agent(a.id, 'keys')] });
  return (
    <div className="stack">
      <form className="row" style={{ alignItems: 'flex-end', maxWidth: 520 }} onSubmit={(e) => (e.preventDefault(), create.mutate(name.trim()))}>
        <div className="grow">
          <Input label="New key name" value={name} onChange={(e) => setName(e.target.value)} placeholder="laptop" />
        </div>
        <Button type="submit" busy={create.isPending} disabled={a.status === 'terminated'}>Create key</Button>
      </form>
      {list.isPending ? <Loading /> : list.isError ? <ErrorBox error={list.error} /> : (
        <div className="card card-flush">
          <Table<AgentKey>
            label="API keys"
            rows={list.data}
            rowKey={(k) => k.id}
            empty={<EmptyState title="No keys">An agent running outside Headcount authenticates with a long-lived key. Heartbeats get a run token and need none.</EmptyState>}
            columns={[
              { key: 'name', header: 'Name', render: (k) => k.name || '—' },
              { key: 'prefix', header: 'Key', render: (k) => <span className="mono">{k.prefix}…</span> },
              { key: 'created', header: 'Created', render: (k) => <RelativeTime iso={k.createdAt} /> },
              { key: 'used', header: 'Last used', render: (k) => (k.lastUsedAt ? <RelativeTime iso={k.lastUsedAt} /> : 'never') },
              { key: 'status', header: 'Status', render: (k) => (k.revokedAt ? <Pill tone="neutral">revoked</Pill> : <Pill tone="green">active</Pill>) },
              { key: 'actions', header: '', align: 'right', render: (k) => (k.revokedAt ? null : <Button size="sm" variant="danger" aria-label={`Revoke key ${k.name || k.prefix}`} onClick={() => revoke.mutate(k)}>Revoke</Button>) },
            ]}
          />
        </div>
      )}
      <Dialog open={!!created} onClose={() => setCreated(null)} title="Copy the key now" footer={<Button variant="primary" onClick={() => setCreated(null)}>Done</Button>}>
        <div className="stack">
          <p style={{ margin: 0 }}>This is the only time the full key is shown. Only a hash is stored.</p>
          <input className="input mono" readOnly aria-label="New API key" value={created?.key ?? ''} onFocus={(e) => e.target.select()} />
          <div>
            <Button size="sm" onClick={() => void navigator.clipboard?.writeText(created?.key ?? '')}>Copy to clipboard</Button>
          </div>
        </div>
      </Dialog>
    </div>
  );
}

function AgentRuns({ agent: a, companyId }: { agent: Agent; companyId: string }) {
  const runs = useCursorList<HeartbeatRun>(keys.runs(companyId), `/api/companies/${companyId}/heartbeat-runs`, { agentId: a.id });
  if (runs.isPending) return <Loading />;
  if (runs.isError) return <ErrorBox error={runs.error} />;
  return (
    <div className="card card-flush">
      <VirtualTable<HeartbeatRun>
        label="Runs of this agent"
        rows={runs.items}
        hasMore={runs.hasMore}
        loadingMore={runs.loadingMore}
        loadMore={runs.loadMore}
        rowKey={(r) => r.id}
        onRowClick={(r) => navigate(`/runs/${r.id}`)}
        empty={<EmptyState title="No runs yet">Invoke a heartbeat, or assign an issue to this agent.</EmptyState>}
        columns={[
          { key: 'status', header: 'Status', render: (r) => <Pill status={r.status} /> },
          { key: 'trigger', header: 'Trigger', render: (r) => r.trigger },
          { key: 'queued', header: 'Started', render: (r) => <RelativeTime iso={r.startedAt ?? r.queuedAt} /> },
          { key: 'duration', header: 'Duration', render: (r) => duration(r.startedAt, r.finishedAt) },
          { key: 'cost', header: 'Cost', align: 'right', render: (r) => formatCents(r.costCents) },
        ]}
      />
    </div>
  );
}
