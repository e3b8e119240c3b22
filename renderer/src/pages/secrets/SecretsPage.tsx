import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PageProps } from '../../app/page-props.js';
import { useApi } from '../../app/api-context.js';
import { useAction, useAgents } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Secret, SystemStatus } from '../../api/types.js';
import type { Outbox } from '../../../../main/core/crm/contract.js';
import { PageHeader, Loading, ErrorBox } from '../../components/Page.js';
import { Table } from '../../components/Table.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Textarea } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { href } from '../../app/router.js';
import { formatDateTime } from '../../app/format.js';
import { useShortcut } from '../../shortcuts/registry.js';
import { secretUsage } from './usage.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import './secrets.css';
import { allArrayPages } from '../../api/array-pages.js';

type Editing = { mode: 'create' } | { mode: 'rotate'; secret: Secret } | null;

/**
 * Secrets: names, versions and where they are used. A value is typed once and never shown again,
 * not even to the board (the API returns metadata only).
 */
export function SecretsPage({ companyId }: PageProps) {
  const api = useApi();
  const secrets = useQuery({ queryKey: keys.secrets(companyId), queryFn: () => allArrayPages<Secret>(api, `/api/companies/${companyId}/secrets`) });
  const agents = useAgents(companyId);
  const outboxes = useQuery({ queryKey: ['company', companyId, 'crm', 'outboxes'], queryFn: () => allArrayPages<Outbox>(api, `/api/companies/${companyId}/crm/outboxes`).catch(() => []) });
  const status = useQuery({ queryKey: [...keys.system(), 'status'], queryFn: () => api.get<SystemStatus>('/api/system/status') });
  const usage = useMemo(() => secretUsage(agents.data ?? [], outboxes.data ?? []), [agents.data, outboxes.data]);
  const [editing, setEditing] = useState<Editing>(null);
  const [confirmDelete, setConfirmDelete] = useState<Secret | null>(null);
  const remove = useAction((s: Secret) => api.delete(`/api/secrets/${s.id}`), { success: 'Secret deleted', errorTitle: 'Could not delete the secret', invalidate: [keys.secrets(companyId)], onSuccess: () => setConfirmDelete(null) });
  useShortcut('n', 'New secret', () => setEditing({ mode: 'create' }), { group: 'Secrets' });

  const warning = status.data?.keyProvider.warning;
  return (
    <div className="page">
      <PageHeader
        title="Secrets"
        subtitle="API keys and passwords your agents and outboxes use. Values are encrypted at rest and never shown after you save them."
        actions={<Button variant="primary" onClick={() => setEditing({ mode: 'create' })} title="n">New secret</Button>}
      />
      {/* The frame shows the key provider's warning on every page; here, where the key is. */}
      {status.data ? <p className={warning ? 'tone-amber-text' : 'muted'} style={{ marginTop: 0 }}>Master key: {status.data.keyProvider.description}</p> : null}
      {secrets.isPending ? (
        <Loading />
      ) : secrets.isError ? (
        <ErrorBox error={secrets.error} retry={() => void secrets.refetch()} />
      ) : (
        <div className="card card-flush">
          <Table<Secret>
            label="Secrets"
            rows={secrets.data}
            rowKey={(s) => s.id}
            empty={
              <EmptyState title="No secrets yet" action={<Button variant="primary" onClick={() => setEditing({ mode: 'create' })}>New secret</Button>}>
                Store an API key here, then reference it from an agent's environment instead of pasting the key into its configuration.
              </EmptyState>
            }
            columns={[
              {
                key: 'name',
                header: 'Name',
                render: (s) => (
                  <div>
                    <div className="mono">{s.name}</div>
                    {s.description ? <div className="muted" style={{ fontSize: 12 }}>{s.description}</div> : null}
                  </div>
                ),
              },
              {
                key: 'versions',
                header: 'Versions',
                render: (s) => (
                  <span title={s.versions.map((v) => `v${v.version} · ${formatDateTime(v.createdAt)}`).join('\n')}>
                    <Pill tone="blue">v{s.latestVersion}</Pill> <span className="muted">{s.versions.length > 1 ? `${s.versions.length} versions` : '1 version'}</span>
                  </span>
                ),
              },
              {
                key: 'usage',
                header: 'Used by',
                render: (s) => {
                  const uses = usage.get(s.id) ?? [];
                  if (uses.length === 0) return <span className="faint">Not used</span>;
                  return (
                    <ul className="plain-list" aria-label={`Uses of ${s.name}`}>
                      {uses.map((u, i) => (
                        <li key={i}>
                          <a href={href(u.href)}>{u.label}</a> <span className="muted mono" style={{ fontSize: 11 }}>{u.detail}</span>
                        </li>
                      ))}
                    </ul>
                  );
                },
              },
              { key: 'updated', header: 'Rotated', render: (s) => <RelativeTime iso={s.versions.at(-1)?.createdAt ?? s.updatedAt} /> },
              {
                key: 'actions',
                header: '',
                align: 'right',
                render: (s) => (
                  <div className="row" style={{ justifyContent: 'flex-end' }}>
                    <Button size="sm" onClick={() => setEditing({ mode: 'rotate', secret: s })} aria-label={`Rotate ${s.name}`}>Rotate</Button>
                    <Button size="sm" variant="ghost" onClick={() => setConfirmDelete(s)} aria-label={`Delete ${s.name}`}>Delete</Button>
                  </div>
                ),
              },
            ]}
          />
        </div>
      )}
      {editing ? <SecretDialog companyId={companyId} editing={editing} onClose={() => setEditing(null)} /> : null}
      <Dialog
        open={!!confirmDelete}
        title="Delete secret"
        onClose={() => setConfirmDelete(null)}
        footer={
          <>
            <Button onClick={() => setConfirmDelete(null)}>Keep it</Button>
            <Button variant="danger" busy={remove.isPending} onClick={() => confirmDelete && remove.mutate(confirmDelete)}>Delete</Button>
          </>
        }
      >
        <p>
          Delete <span className="mono">{confirmDelete?.name}</span>? Agents that still reference it must be changed first; the server refuses otherwise.
        </p>
      </Dialog>
    </div>
  );
}

/** Create or rotate. The value lives in this form's state only until it is sent, then it is cleared. */
function SecretDialog({ companyId, editing, onClose }: { companyId: string; editing: NonNullable<Editing>; onClose: () => void }) {
  const api = useApi();
  const rotating = editing.mode === 'rotate' ? editing.secret : null;
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [description, setDescription] = useState(rotating?.description ?? '');
  const save = useAction(
    () =>
      rotating
        ? api.patch<Secret>(`/api/secrets/${rotating.id}`, { value, ...(description !== rotating.description ? { description } : {}) })
        : api.post<Secret>(`/api/companies/${companyId}/secrets`, { name, value, ...(description ? { description } : {}) }),
    {
      success: (s) => (rotating ? `${s.name} is now at version ${s.latestVersion}` : `Secret ${s.name} created`),
      errorTitle: rotating ? 'Could not rotate the secret' : 'Could not create the secret',
      invalidate: [keys.secrets(companyId)],
      onSuccess: () => {
        setValue('');
        onClose();
      },
    },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(undefined);
  };
  const title = rotating ? `Rotate ${rotating.name}` : 'New secret';
  return (
    <Dialog
      open
      title={title}
      onClose={() => {
        setValue('');
        onClose();
      }}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="secret-form" busy={save.isPending} disabled={!value || (!rotating && !name)}>
            {rotating ? 'Save new version' : 'Create secret'}
          </Button>
        </>
      }
    >
      <form id="secret-form" className="form" onSubmit={submit} autoComplete="off">
        {rotating ? (
          <p className="muted" style={{ marginTop: 0 }}>
            The new value becomes version {rotating.latestVersion + 1}. References to <em>latest</em> use it from the next run; pinned versions keep theirs.
          </p>
        ) : (
          <Input label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="OPENAI_API_KEY" hint="Letters, digits, _ . - ; start with a letter or _" required autoFocus className="input mono" />
        )}
        <Input label={rotating ? 'New value' : 'Value'} type="password" value={value} onChange={(e) => setValue(e.target.value)} required autoFocus={!!rotating} hint="Write-only: it is never shown again." autoComplete="new-password" spellCheck={false} />
        <Textarea label="Description" value={description} onChange={(e) => setDescription(e.target.value)} rows={2} placeholder="What it is for, who issued it" />
      </form>
    </Dialog>
  );
}
