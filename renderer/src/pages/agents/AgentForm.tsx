import { useState } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents, useCompany } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Agent, HireResult } from '../../api/types.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { dollarsToCents } from '../../app/money.js';
import { navigate } from '../../app/router.js';
import { AdapterConfigFields, BUILTIN_FALLBACK, TestEnvironment, useAdapterForm, useAdapters } from '../../forms/adapter-form.js';

/**
 * Hire an agent: the board either requests the hire (a draft agent and a pending hire_agent
 * approval, decided on the approvals page) or creates the agent at once.
 */
export function HireDialog({ companyId, open, onClose }: { companyId: string; open: boolean; onClose: () => void }) {
  const api = useApi();
  const agents = useAgents(companyId);
  const company = useCompany(companyId);
  const adapters = useAdapters();
  const loaded = (adapters.data ?? BUILTIN_FALLBACK).filter((a) => a.status === 'loaded');
  const [name, setName] = useState('');
  const [role, setRole] = useState('');
  const [title, setTitle] = useState('');
  const [reportsTo, setReportsTo] = useState('');
  const [capabilities, setCapabilities] = useState('');
  const [budget, setBudget] = useState('');
  const [reason, setReason] = useState('');
  const [adapterType, setAdapterType] = useState('');
  const [error, setError] = useState<string | null>(null);
  // The company's default adapter (Settings → Company) is preselected when it is installed.
  const preferred = loaded.find((a) => a.type === company.data?.defaultAdapterType)?.type;
  const chosen = adapterType || preferred || loaded[0]?.type || 'process';
  const form = useAdapterForm(chosen);
  const living = (agents.data ?? []).filter((a) => a.status !== 'terminated' && a.status !== 'draft');

  const fields = () => {
    const cents = dollarsToCents(budget);
    if (cents === null) {
      setError('Budget: enter an amount in dollars, like 20 or 7.50');
      return null;
    }
    setError(null);
    let adapterConfig: Record<string, unknown>;
    try {
      adapterConfig = form.build();
    } catch {
      return null;
    }
    return { name: name.trim(), role: role.trim(), title: title.trim(), reportsTo: reportsTo || null, capabilities, budgetMonthlyCents: cents, adapterType: chosen, adapterConfig };
  };

  const hire = useAction((body: Record<string, unknown>) => api.post<HireResult>(`/api/companies/${companyId}/agent-hires`, body), {
    errorTitle: 'Could not request the hire',
    success: 'Hire requested: approve it to activate the agent',
    invalidate: [keys.approvals(companyId), keys.agents(companyId)],
    onSuccess: (r) => {
      onClose();
      navigate(`/approvals/${r.approval.id}`);
    },
  });
  const create = useAction((body: Record<string, unknown>) => api.post<Agent>(`/api/companies/${companyId}/agents`, body), {
    errorTitle: 'Could not create the agent',
    success: (a) => `${a.name} joined the team`,
    invalidate: [keys.agents(companyId), keys.org(companyId)],
    onSuccess: (a) => {
      onClose();
      navigate(`/agents/${a.id}`);
    },
  });

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Hire an agent"
      wide
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>Cancel</Button>
          <Button
            disabled={!name.trim()}
            busy={create.isPending}
            onClick={() => {
              const f = fields();
              if (f) create.mutate(f);
            }}
          >
            Create without approval
          </Button>
          <Button
            variant="primary"
            disabled={!name.trim() || !role.trim()}
            busy={hire.isPending}
            onClick={() => {
              const f = fields();
              if (f) hire.mutate({ ...f, ...(reason.trim() ? { reason: reason.trim() } : {}) });
            }}
          >
            Request hire
          </Button>
        </>
      }
    >
      <div className="form">
        {error ? <div className="error-box" role="alert">{error}</div> : null}
        <div className="form-row">
          <Input label="Name *" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
          <Input label="Role *" value={role} onChange={(e) => setRole(e.target.value)} placeholder="engineer" hint="A short word: engineer, marketer, researcher" />
        </div>
        <div className="form-row">
          <Input label="Title" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Founding Engineer" />
          <Select label="Reports to" value={reportsTo} onChange={(e) => setReportsTo(e.target.value)} options={[{ value: '', label: 'Nobody (top of the org)' }, ...living.map((a) => ({ value: a.id, label: `${a.name}${a.title ? ` · ${a.title}` : ''}` }))]} />
        </div>
        <Textarea label="Capabilities" rows={2} value={capabilities} onChange={(e) => setCapabilities(e.target.value)} hint="What this agent is good at; other agents read it when delegating." />
        <div className="form-row">
          <Input label="Monthly budget (USD)" inputMode="decimal" value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="No limit" />
          <Select label="Adapter" value={chosen} onChange={(e) => setAdapterType(e.target.value)} options={loaded.map((a) => ({ value: a.type, label: `${a.label} (${a.type})` }))} hint="How the agent runs at each heartbeat" />
        </div>
        <AdapterConfigFields form={form} companyId={companyId} />
        <TestEnvironment companyId={companyId} adapterType={chosen} form={form} />
        <Textarea label="Why hire (for the approval)" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
    </Dialog>
  );
}
