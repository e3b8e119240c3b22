import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Agent } from '../../api/types.js';
import type * as Heartbeat from '../../../../main/core/heartbeat/contract.js';
import { Dialog } from '../../components/Dialog.js';
import { Button } from '../../components/Button.js';
import { Checkbox, Input, Select, Textarea } from '../../components/Field.js';
import { Loading, ErrorBox } from '../../components/Page.js';
import { centsToDollars, dollarsToCents } from '../../app/money.js';
import './agent-edit.css';

type HeartbeatSettings = z.infer<typeof Heartbeat.HeartbeatSettings>;

/**
 * Edits who an agent is (name, title, role, manager, capabilities), its budget and its heartbeat
 * schedule. The adapter and its configuration are edited on the Configuration tab, not here.
 */
export function AgentEditDialog({ agent, companyId, onClose }: { agent: Agent; companyId: string; onClose: () => void }) {
  const api = useApi();
  const schedule = useQuery({ queryKey: keys.agent(agent.id, 'heartbeat-settings'), queryFn: () => api.get<HeartbeatSettings>(`/api/agents/${agent.id}/heartbeat-settings`) });
  return (
    <Dialog open onClose={onClose} title={`Edit ${agent.name}`} wide>
      {schedule.isPending ? <Loading /> : schedule.isError ? <ErrorBox error={schedule.error} retry={() => void schedule.refetch()} /> : (
        <AgentEditForm agent={agent} companyId={companyId} schedule={schedule.data} onDone={onClose} />
      )}
    </Dialog>
  );
}

function AgentEditForm({ agent: a, companyId, schedule, onDone }: { agent: Agent; companyId: string; schedule: HeartbeatSettings; onDone: () => void }) {
  const api = useApi();
  const agents = useAgents(companyId);
  const [name, setName] = useState(a.name);
  const [title, setTitle] = useState(a.title);
  const [role, setRole] = useState(a.role);
  const [reportsTo, setReportsTo] = useState(a.reportsTo ?? '');
  const [capabilities, setCapabilities] = useState(a.capabilities);
  const [budget, setBudget] = useState(centsToDollars(a.budgetMonthlyCents));
  const [enabled, setEnabled] = useState(schedule.enabled);
  const [minutes, setMinutes] = useState(schedule.intervalSec ? String(Math.round((schedule.intervalSec / 60) * 100) / 100) : '');
  const [skipWhenIdle, setSkipWhenIdle] = useState(schedule.skipWhenIdle);
  const [errors, setErrors] = useState<{ budget?: string; minutes?: string }>({});

  const save = useAction(
    async (body: { patch: Record<string, unknown>; heartbeat: HeartbeatSettings | null }) => {
      if (Object.keys(body.patch).length > 0) await api.patch<Agent>(`/api/agents/${a.id}`, body.patch);
      if (body.heartbeat) await api.put<HeartbeatSettings>(`/api/agents/${a.id}/heartbeat-settings`, body.heartbeat);
    },
    {
      success: 'Agent saved',
      errorTitle: 'Could not save the agent',
      invalidate: [keys.agent(a.id), keys.agents(companyId), keys.org(companyId)],
      onSuccess: onDone,
    },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cents = dollarsToCents(budget);
    const interval = minutes.trim() ? Math.round(Number(minutes) * 60) : null;
    const problems: typeof errors = {};
    if (cents === null) problems.budget = 'Enter dollars, like 20 or 7.50; empty means no limit';
    if (minutes.trim() && (!Number.isFinite(interval) || interval! < 1)) problems.minutes = 'Enter minutes, like 30 or 0.5';
    if (enabled && !interval) problems.minutes = 'A schedule needs an interval';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const next = { name: name.trim(), title: title.trim(), role: role.trim(), reportsTo: reportsTo || null, capabilities, budgetMonthlyCents: cents! };
    const current = { name: a.name, title: a.title, role: a.role, reportsTo: a.reportsTo ?? null, capabilities: a.capabilities, budgetMonthlyCents: a.budgetMonthlyCents };
    const patch = Object.fromEntries(Object.entries(next).filter(([k, v]) => current[k as keyof typeof current] !== v));
    const heartbeat = { enabled, intervalSec: interval, skipWhenIdle };
    const scheduleChanged = heartbeat.enabled !== schedule.enabled || heartbeat.intervalSec !== schedule.intervalSec || heartbeat.skipWhenIdle !== schedule.skipWhenIdle;
    if (Object.keys(patch).length === 0 && !scheduleChanged) return onDone();
    save.mutate({ patch, heartbeat: scheduleChanged ? heartbeat : null });
  };

  const managers = (agents.data ?? []).filter((x) => x.id !== a.id && x.status !== 'terminated');
  return (
    <form className="stack" onSubmit={submit} aria-label="Edit agent">
      <div className="form-row">
        <Input label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        <Input label="Title" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Head of Engineering" />
      </div>
      <div className="form-row">
        <Input label="Role" value={role} onChange={(e) => setRole(e.target.value)} placeholder="engineer" hint="Short; shown in the org chart and to other agents." />
        <Select
          label="Reports to"
          value={reportsTo}
          onChange={(e) => setReportsTo(e.target.value)}
          options={[{ value: '', label: 'Nobody (top of the org)' }, ...managers.map((m) => ({ value: m.id, label: `${m.name}${m.title ? ` · ${m.title}` : ''}` }))]}
        />
      </div>
      <Textarea label="Capabilities" rows={3} value={capabilities} onChange={(e) => setCapabilities(e.target.value)} hint="What this agent is good at; managers read it when delegating." />
      <Input label="Monthly budget (USD)" value={budget} onChange={(e) => {
        setBudget(e.target.value);
        setErrors((x) => ({ ...x, budget: undefined }));
      }} placeholder="No limit" error={errors.budget ?? null} hint="At 100% the agent pauses until the month ends or the budget is raised." />
      <fieldset className="agent-schedule">
        <legend>Heartbeat schedule</legend>
        <Checkbox label="Wake on a schedule" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        <Input label="Every (minutes)" type="number" min={0.02} step="any" value={minutes} onChange={(e) => {
            setMinutes(e.target.value);
            setErrors((x) => ({ ...x, minutes: undefined }));
          }} placeholder="Not scheduled" error={errors.minutes ?? null} hint="Assignments and mentions wake the agent anyway." />
        <Checkbox label="Skip a scheduled wake when the agent has nothing to do" checked={skipWhenIdle} onChange={(e) => setSkipWhenIdle(e.target.checked)} />
      </fieldset>
      <div className="row">
        <Button variant="primary" type="submit" busy={save.isPending} disabled={!name.trim()}>Save</Button>
        <Button variant="ghost" onClick={onDone}>Cancel</Button>
      </div>
    </form>
  );
}
