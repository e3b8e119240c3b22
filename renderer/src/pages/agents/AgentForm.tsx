import { useState } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents, useCompany } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Agent, HireResult } from '../../api/types.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Textarea } from '../../components/Field.js';
import { dollarsToCents } from '../../app/money.js';
import { navigate } from '../../app/router.js';
import { BUILTIN_FALLBACK, useAdapterForm, useAdapters } from '../../forms/adapter-form.js';
import { AdapterSetup } from '../../forms/AdapterSetup.js';
import { AgentIdentityFields, EMPTY_IDENTITY, type AgentIdentity } from './AgentIdentityFields.js';

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
  const [identity, setIdentity] = useState<AgentIdentity>(EMPTY_IDENTITY);
  const [reason, setReason] = useState('');
  const [adapterType, setAdapterType] = useState('');
  const [budgetError, setBudgetError] = useState<string | null>(null);
  // The company's default adapter (Settings → Company) is preselected when it is installed.
  const preferred = loaded.find((a) => a.type === company.data?.defaultAdapterType)?.type;
  const chosen = adapterType || preferred || loaded[0]?.type || 'process';
  const form = useAdapterForm(chosen);
  const living = (agents.data ?? []).filter((a) => a.status !== 'terminated' && a.status !== 'draft');

  const fields = () => {
    const cents = dollarsToCents(identity.budget);
    if (cents === null) {
      setBudgetError('Enter an amount in dollars, like 20 or 7.50');
      return null;
    }
    setBudgetError(null);
    let adapterConfig: Record<string, unknown>;
    try {
      adapterConfig = form.build();
    } catch {
      return null;
    }
    const { name, role, title, reportsTo, capabilities } = identity;
    return { name: name.trim(), role: role.trim(), title: title.trim(), reportsTo: reportsTo || null, capabilities, budgetMonthlyCents: cents, adapterType: chosen, adapterConfig };
  };

  const hire = useAction((body: Record<string, unknown>) => api.post<HireResult>(`/api/companies/${companyId}/agent-hires`, body), {
    errorTitle: 'Could not request the hire',
    success: 'Hire requested: approve it to activate the agent',
    invalidate: [keys.approvals(companyId), keys.agents(companyId)],
    handled: (err) => form.showServerError(err),
    onSuccess: (r) => {
      onClose();
      navigate(`/approvals/${r.approval.id}`);
    },
  });
  const create = useAction((body: Record<string, unknown>) => api.post<Agent>(`/api/companies/${companyId}/agents`, body), {
    errorTitle: 'Could not create the agent',
    success: (a) => `${a.name} joined the team`,
    invalidate: [keys.agents(companyId), keys.org(companyId)],
    handled: (err) => form.showServerError(err),
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
            disabled={!identity.name.trim()}
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
            disabled={!identity.name.trim() || !identity.role.trim()}
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
        <AgentIdentityFields value={identity} onChange={setIdentity} managers={living} budgetError={budgetError} />
        <AdapterSetup companyId={companyId} adapters={loaded} adapterType={chosen} onAdapterType={setAdapterType} form={form} />
        <Textarea label="Why hire (for the approval)" rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
    </Dialog>
  );
}
