import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction, useCompany } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Company } from '../../api/types.js';
import { Section, Card, Loading, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { TypedConfirmDialog } from '../../components/TypedConfirmDialog.js';
import { centsToDollars, dollarsToCents } from '../../app/money.js';
import { formatDateTime } from '../../app/format.js';
import { navigate } from '../../app/router.js';
import { BUILTIN_FALLBACK, useAdapters } from '../../forms/adapter-form.js';
import { BrandVoiceTab } from '../crm/BrandVoiceTab.js';
import { allArrayPages } from '../../api/array-pages.js';

/** The selected company's own settings: identity, hiring default, budget, brand voice, archive and delete. */
export function CompanySettings({ companyId }: { companyId: string }) {
  const company = useCompany(companyId);
  if (company.isPending) return <Loading />;
  if (company.isError) return <ErrorBox error={company.error} retry={() => void company.refetch()} />;
  return (
    <div className="settings-grid">
      <div>
        <Section title="Company">
          <CompanyForm company={company.data} />
        </Section>
        <Section title="Archive or delete">
          <DangerZone company={company.data} />
        </Section>
        <Section title="Archived companies">
          <ArchivedCompanies />
        </Section>
      </div>
      <Section title="Brand voice">
        <BrandVoiceTab companyId={companyId} />
      </Section>
    </div>
  );
}

function CompanyForm({ company: c }: { company: Company }) {
  const api = useApi();
  const adapters = useAdapters();
  const [name, setName] = useState(c.name);
  const [description, setDescription] = useState(c.description);
  const [adapter, setAdapter] = useState(c.defaultAdapterType ?? '');
  const [budget, setBudget] = useState(centsToDollars(c.budgetMonthlyCents));
  const [budgetError, setBudgetError] = useState<string | null>(null);
  // A new company record resets the fields (adjusted during render, not in an effect: no stale frame).
  const [shown, setShown] = useState(c);
  if (shown !== c) {
    setShown(c);
    setName(c.name);
    setDescription(c.description);
    setAdapter(c.defaultAdapterType ?? '');
    setBudget(centsToDollars(c.budgetMonthlyCents));
  }
  const save = useAction((body: Record<string, unknown>) => api.patch<Company>(`/api/companies/${c.id}`, body), {
    success: 'Company saved',
    errorTitle: 'Could not save the company',
    invalidate: [keys.company(c.id), keys.companies()],
  });
  const cents = dollarsToCents(budget);
  const dirty = name !== c.name || description !== c.description || adapter !== (c.defaultAdapterType ?? '') || cents !== c.budgetMonthlyCents;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (cents === null) return setBudgetError('Enter dollars, like 500 or 49.90; empty means no limit');
    setBudgetError(null);
    save.mutate({ name: name.trim(), description, defaultAdapterType: adapter || null, budgetMonthlyCents: cents });
  };
  const loaded = (adapters.data ?? BUILTIN_FALLBACK).filter((a) => a.status === 'loaded' || a.type === adapter);
  return (
    <Card>
      <form className="form" onSubmit={submit} aria-label="Company">
        <Input label="Name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        <Textarea label="Description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} hint="What the company does; agents read it in their instructions." />
        <Select
          label="Default adapter"
          value={adapter}
          onChange={(e) => setAdapter(e.target.value)}
          options={[{ value: '', label: 'None: pick for each hire' }, ...loaded.map((a) => ({ value: a.type, label: a.label }))]}
          hint="The coding CLI a new hire starts with in the hire form; each agent can still use another."
        />
        <Input label="Monthly budget (USD)" value={budget} onChange={(e) => setBudget(e.target.value)} placeholder="No limit" error={budgetError} hint="At 100% every agent of the company pauses until the month ends or the budget is raised." />
        <div className="row">
          <Button variant="primary" type="submit" busy={save.isPending} disabled={!dirty || !name.trim()}>Save</Button>
          {dirty ? <span className="muted">Unsaved changes</span> : null}
        </div>
      </form>
    </Card>
  );
}

/** Archive (reversible) and delete (archive first, then every row and file, for good). */
function DangerZone({ company: c }: { company: Company }) {
  const api = useApi();
  const [confirm, setConfirm] = useState<'archive' | 'delete' | null>(null);
  const left = () => {
    setConfirm(null);
    navigate('/');
  };
  const archive = useAction(() => api.post<Company>(`/api/companies/${c.id}/archive`), {
    success: `${c.name} archived; unarchive it below any time`,
    errorTitle: 'Could not archive the company',
    invalidate: [keys.companies(), keys.company(c.id)],
    onSuccess: left,
  });
  const remove = useAction(
    async () => {
      if (c.status !== 'archived') await api.post<Company>(`/api/companies/${c.id}/archive`);
      await api.delete<null>(`/api/companies/${c.id}`);
    },
    { success: `${c.name} deleted`, errorTitle: 'Could not delete the company', invalidate: [keys.companies()], onSuccess: left },
  );
  return (
    <Card>
      <div className="stack">
        <div className="danger-row">
          <div>
            <strong>Archive this company</strong>
            <div className="muted">Its agents stop taking heartbeats and it leaves the company switcher. Nothing is deleted; unarchive it any time.</div>
          </div>
          <Button variant="danger" onClick={() => setConfirm('archive')}>Archive company</Button>
        </div>
        <div className="danger-row">
          <div>
            <strong>Delete this company</strong>
            <div className="muted">Deletes its agents, issues, runs, transcripts, costs, secrets and files for good. Export it first to keep a copy.</div>
          </div>
          <Button variant="danger" onClick={() => setConfirm('delete')}>Delete company</Button>
        </div>
      </div>
      <TypedConfirmDialog
        open={confirm === 'archive'}
        title={`Archive ${c.name}?`}
        phrase={c.name}
        action="Archive company"
        busy={archive.isPending}
        onConfirm={() => archive.mutate(undefined)}
        onClose={() => setConfirm(null)}
      >
        New heartbeats stop and the company is hidden from the switcher. Runs already going finish. You can unarchive it from Settings.
      </TypedConfirmDialog>
      <TypedConfirmDialog
        open={confirm === 'delete'}
        title={`Delete ${c.name} for good?`}
        phrase={c.name}
        action="Delete company"
        busy={remove.isPending}
        onConfirm={() => remove.mutate(undefined)}
        onClose={() => setConfirm(null)}
      >
        The company is archived, then everything it holds is deleted and cannot be recovered. A run still going blocks the delete: cancel it first.
      </TypedConfirmDialog>
    </Card>
  );
}

function ArchivedCompanies() {
  const api = useApi();
  const all = useQuery({ queryKey: [...keys.companies(), 'archived'], queryFn: () => allArrayPages<Company>(api, '/api/companies', { includeArchived: 'true' }) });
  const [deleting, setDeleting] = useState<Company | null>(null);
  const unarchive = useAction((c: Company) => api.post<Company>(`/api/companies/${c.id}/unarchive`), {
    success: (c) => `${c.name} is back in the switcher`,
    errorTitle: 'Could not unarchive the company',
    invalidate: [keys.companies()],
  });
  const remove = useAction((c: Company) => api.delete<null>(`/api/companies/${c.id}`), {
    success: 'Company deleted',
    errorTitle: 'Could not delete the company',
    invalidate: [keys.companies()],
    onSuccess: () => setDeleting(null),
  });
  if (all.isPending) return <Loading />;
  if (all.isError) return <ErrorBox error={all.error} retry={() => void all.refetch()} />;
  const archived = all.data.filter((c) => c.status === 'archived');
  return (
    <Card>
      {archived.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>No archived companies. An archived company keeps all its data and can come back here.</p>
      ) : (
        <ul className="plain archived-list" aria-label="Archived companies">
          {archived.map((c) => (
            <li key={c.id} className="danger-row">
              <div>
                <strong>{c.name}</strong>
                <div className="muted">Archived · last changed {formatDateTime(c.updatedAt)}</div>
              </div>
              <span className="row">
                <Button size="sm" busy={unarchive.isPending && unarchive.variables?.id === c.id} onClick={() => unarchive.mutate(c)}>Unarchive</Button>
                <Button size="sm" variant="danger" onClick={() => setDeleting(c)}>Delete</Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <TypedConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''} for good?`}
        phrase={deleting?.name ?? ''}
        action="Delete company"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onClose={() => setDeleting(null)}
      >
        Everything the company holds is deleted and cannot be recovered.
      </TypedConfirmDialog>
    </Card>
  );
}
