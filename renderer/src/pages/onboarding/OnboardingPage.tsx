import { useState } from 'react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Agent, Company } from '../../api/types.js';
import { useUi } from '../../stores/ui.js';
import { navigate } from '../../app/router.js';
import { Button } from '../../components/Button.js';
import { Input, Textarea } from '../../components/Field.js';
import { Pill } from '../../components/Pill.js';
import { Loading } from '../../components/Page.js';
import { AdapterConfigFields, BUILTIN_FALLBACK, TestEnvironment, readinessSummary, useAdapterForm, useAdapters, type AdapterInfo, type EnvironmentTestResult } from '../../forms/adapter-form.js';
import { adapterLabel } from '../../app/adapter-label.js';
import { proposedAdapter } from './propose.js';
import { dollarsToCents } from '../../app/money.js';

type Step = 'start' | 'company' | 'ceo';

/** Installed CLIs: each loaded adapter's environment test with its default configuration. */
function useDetection(companyId: string | null, adapters: AdapterInfo[]) {
  const api = useApi();
  return useQueries({
    queries: adapters.map((a) => ({
      queryKey: ['detect', companyId, a.type],
      enabled: !!companyId && a.status === 'loaded',
      retry: false,
      staleTime: Infinity,
      // An experimental type refuses a configuration without the opt-in; detection only asks whether it could run.
      queryFn: () => api.post<EnvironmentTestResult>(`/api/companies/${companyId}/adapters/${a.type}/test-environment`, { adapterConfig: a.experimental ? { enableExperimental: true } : {} }),
    })),
  });
}

/**
 * First run: create the company and its CEO (choosing how the CEO runs among the adapters found on
 * this computer), or start the demo company. Also reached from the company switcher ("New company").
 */
export function OnboardingPage({ firstRun }: { firstRun: boolean }) {
  const api = useApi();
  const qc = useQueryClient();
  const setCompanyId = useUi((s) => s.setCompanyId);
  const [step, setStep] = useState<Step>('start');
  const [company, setCompany] = useState<Company | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [budget, setBudget] = useState('');
  const [budgetError, setBudgetError] = useState<string | null>(null);

  // The company list is refetched before the selection moves: with the old list, the shell would
  // see an unknown company selected and fall back to the first one (the demo opened, but did not show).
  const finish = async (companyId: string) => {
    await qc.invalidateQueries({ queryKey: keys.companies() });
    setCompanyId(companyId);
    navigate('/', undefined, true);
  };

  const demo = useAction(() => api.post<{ company: { id: string } }>('/api/demo', {}), {
    errorTitle: 'Could not start the demo company',
    success: 'Demo company started: its CEO is waking up',
    onSuccess: (r) => void finish(r.company.id),
  });

  const createCompany = useAction(
    (body: { name: string; description: string; budgetMonthlyCents?: number }) => api.post<Company>('/api/companies', body),
    {
      errorTitle: 'Could not create the company',
      onSuccess: (c) => {
        setCompany(c);
        setStep('ceo');
        // The company now exists, so the shell would leave the first-run screen; on this route it stays
        // until the CEO step is done or skipped.
        navigate('/onboarding', undefined, true);
      },
    },
  );

  return (
    <div className="center-screen">
      <div className="center-card" style={{ width: 'min(640px, 100%)' }}>
        <div className="steps" aria-hidden="true">
          <span data-done="true" />
          <span data-done={step !== 'start'} />
          <span data-done={step === 'ceo'} />
        </div>
        {step === 'start' ? (
          <div className="stack">
            <h1>{firstRun ? 'Welcome to Headcount' : 'New company'}</h1>
            <p className="muted" style={{ margin: 0 }}>
              Run a company of AI agents on this computer. Start with your company and its CEO, or look around a demo company first.
            </p>
            <button type="button" className="choice" onClick={() => setStep('company')}>
              <div>
                <strong>Set up my company</strong>
                <div className="muted">Name it, set a monthly budget, and choose how your CEO agent runs.</div>
              </div>
            </button>
            <button type="button" className="choice" onClick={() => demo.mutate(undefined)} disabled={demo.isPending} aria-busy={demo.isPending || undefined}>
              <div>
                <strong>{demo.isPending ? 'Starting the demo company…' : 'Start the demo company'}</strong>
                <div className="muted">Scripted agents (no model, no API key) work for a few minutes: a strategy to approve, a question for you, a hire, a failed run retried. Watch them live.</div>
              </div>
            </button>
            {!firstRun ? (
              <div>
                <Button variant="ghost" onClick={() => navigate('/')}>Cancel</Button>
              </div>
            ) : null}
          </div>
        ) : step === 'company' ? (
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              const cents = dollarsToCents(budget);
              if (cents === null) {
                setBudgetError('Enter an amount in dollars, like 50 or 12.50');
                return;
              }
              setBudgetError(null);
              createCompany.mutate({ name: name.trim(), description: description.trim(), ...(cents ? { budgetMonthlyCents: cents } : {}) });
            }}
          >
            <h1>Your company</h1>
            <Input label="Company name" required autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="Acme Robotics" />
            <Textarea label="What does it do?" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} hint="Agents read this to understand the mission." />
            <Input label="Monthly budget (USD)" inputMode="decimal" value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="Leave empty for no limit" error={budgetError} hint="Agents get an alert at 80% and are paused at 100%." />
            <div className="row">
              <Button variant="ghost" onClick={() => setStep('start')}>Back</Button>
              <span className="spacer" />
              <Button type="submit" variant="primary" busy={createCompany.isPending} disabled={!name.trim()}>Create company</Button>
            </div>
          </form>
        ) : company ? (
          <CeoStep company={company} onDone={() => void finish(company.id)} />
        ) : null}
      </div>
    </div>
  );
}

function CeoStep({ company, onDone }: { company: Company; onDone: () => void }) {
  const api = useApi();
  const adaptersQuery = useAdapters();
  const adapters = (adaptersQuery.data ?? BUILTIN_FALLBACK).filter((a) => a.status === 'loaded');
  const detection = useDetection(company.id, adapters);
  const [adapterType, setAdapterType] = useState<string>('');
  const [ceoName, setCeoName] = useState('CEO');
  const chosen = adapterType || proposedAdapter(adapters, detection.map((d) => d.data)) || 'process';
  const form = useAdapterForm(chosen);

  const create = useAction(
    () => api.post<Agent>(`/api/companies/${company.id}/agents`, { name: ceoName.trim(), role: 'ceo', title: 'Chief Executive Officer', adapterType: chosen, adapterConfig: form.build() }),
    { errorTitle: 'Could not create the CEO', success: (a) => `${a.name} is your CEO`, onSuccess: onDone, handled: (err) => form.showServerError(err) },
  );

  if (adaptersQuery.isPending) return <Loading label="Looking for agent CLIs" />;
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        try {
          form.build();
        } catch {
          return;
        }
        create.mutate(undefined);
      }}
    >
      <h1>Your CEO agent</h1>
      <p className="muted" style={{ margin: 0 }}>
        {company.name} is ready. The CEO sets direction and hires the rest of the team (you approve each hire).
      </p>
      <Input label="CEO name" required value={ceoName} onChange={(e) => setCeoName(e.target.value)} />
      <div className="field">
        <span id="adapter-label" style={{ fontSize: 12, fontWeight: 500, color: 'var(--text-muted)' }}>How the CEO runs</span>
        <div className="stack-sm" role="radiogroup" aria-labelledby="adapter-label">
          {adapters.map((a, i) => {
            const d = detection[i];
            const summary = d?.data ? readinessSummary(d.data) : null;
            const checking = !summary && d?.isPending && d.fetchStatus !== 'idle';
            return (
              <button key={a.type} type="button" role="radio" aria-checked={chosen === a.type} aria-pressed={chosen === a.type} className="choice" onClick={() => setAdapterType(a.type)}>
                <div className="grow">
                  <strong>{adapterLabel(a.type, a.label)}</strong>
                </div>
                {summary ? <Pill tone={summary.tone}>{summary.label}</Pill> : checking ? <Pill tone="blue">Checking…</Pill> : null}
                {a.experimental ? <Pill tone="amber">experimental</Pill> : null}
              </button>
            );
          })}
        </div>
      </div>
      <AdapterConfigFields form={form} companyId={company.id} />
      <TestEnvironment companyId={company.id} adapterType={chosen} form={form} />
      <div className="row">
        <Button variant="ghost" onClick={onDone}>Skip for now</Button>
        <span className="spacer" />
        <Button type="submit" variant="primary" busy={create.isPending} disabled={!ceoName.trim() || !form.ready}>Create CEO</Button>
      </div>
    </form>
  );
}
