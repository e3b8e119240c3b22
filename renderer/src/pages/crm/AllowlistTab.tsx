import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { Loading, ErrorBox, Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Input, Select } from '../../components/Field.js';
import { Table } from '../../components/Table.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { ALLOWLIST_KINDS, CHANNELS, CHANNEL_LABEL, crmBase, crmKey, useOutboxes, type AllowlistEntry } from './crm-api.js';
import { allArrayPages } from '../../api/array-pages.js';

const PLACEHOLDER: Record<string, string> = { address: 'jane@example.com', domain: 'example.com or *.example.com', phone: '+14155550123', handle: 'janedoe' };

/** Default deny: a recipient not on this list is never contacted. */
export function AllowlistTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const entries = useQuery({ queryKey: crmKey(companyId, 'allowlist'), queryFn: () => allArrayPages<AllowlistEntry>(api, `${crmBase(companyId)}/allowlist`) });
  const outboxes = useOutboxes(companyId);
  const [kind, setKind] = useState<(typeof ALLOWLIST_KINDS)[number]>('address');
  const [value, setValue] = useState('');
  const [channel, setChannel] = useState('');
  const [outboxId, setOutboxId] = useState('');
  const [note, setNote] = useState('');
  const invalidate = [crmKey(companyId, 'allowlist')];
  const add = useAction(
    () => api.post<AllowlistEntry>(`${crmBase(companyId)}/allowlist`, { kind, value: value.trim(), channel: channel || null, outboxId: outboxId || null, ...(note.trim() ? { note: note.trim() } : {}) }),
    { success: (e) => `${e.value} allowed`, errorTitle: 'Could not add the entry', invalidate, onSuccess: () => { setValue(''); setNote(''); } },
  );
  const remove = useAction((e: AllowlistEntry) => api.delete(`${crmBase(companyId)}/allowlist/${e.id}`), { success: 'Entry removed', errorTitle: 'Could not remove the entry', invalidate });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) add.mutate(undefined);
  };
  const outboxName = (id: string | null) => (id ? (outboxes.data?.find((o) => o.id === id)?.name ?? 'an outbox') : 'any outbox');
  return (
    <div className="stack">
      <Card>
        <form className="allow-form" onSubmit={submit} aria-label="Allow a recipient">
          <Select label="Kind" value={kind} onChange={(e) => setKind(e.target.value as (typeof ALLOWLIST_KINDS)[number])} options={ALLOWLIST_KINDS.map((k) => ({ value: k, label: k }))} />
          <Input label="Recipient" value={value} onChange={(e) => setValue(e.target.value)} placeholder={PLACEHOLDER[kind]} required />
          <Select label="Channel" value={channel} onChange={(e) => setChannel(e.target.value)} options={[{ value: '', label: 'Every channel' }, ...CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABEL[c] ?? c }))]} />
          <Select label="Outbox" value={outboxId} onChange={(e) => setOutboxId(e.target.value)} options={[{ value: '', label: 'Every outbox' }, ...(outboxes.data ?? []).map((o) => ({ value: o.id, label: o.name }))]} />
          <Input label="Note" value={note} onChange={(e) => setNote(e.target.value)} placeholder="Why" />
          <Button variant="primary" type="submit" busy={add.isPending} disabled={!value.trim()}>Allow</Button>
        </form>
      </Card>
      {entries.isPending ? (
        <Loading />
      ) : entries.isError ? (
        <ErrorBox error={entries.error} retry={() => void entries.refetch()} />
      ) : (
        <div className="card card-flush">
          <Table<AllowlistEntry>
            label="Allowlist"
            rows={entries.data}
            rowKey={(e) => e.id}
            empty={<EmptyState title="Nobody is allowed yet">Every message is blocked until its recipient, or their domain, is on this list.</EmptyState>}
            columns={[
              { key: 'value', header: 'Recipient', render: (e) => <span className="mono">{e.value}</span> },
              { key: 'kind', header: 'Kind', render: (e) => <Pill>{e.kind}</Pill> },
              { key: 'scope', header: 'Applies to', render: (e) => `${e.channel ? (CHANNEL_LABEL[e.channel] ?? e.channel) : 'every channel'} · ${outboxName(e.outboxId)}` },
              { key: 'note', header: 'Note', render: (e) => <span className="muted">{e.note ?? ''}</span> },
              { key: 'x', header: '', align: 'right', render: (e) => <Button size="sm" variant="ghost" onClick={() => remove.mutate(e)} aria-label={`Remove ${e.value}`}>Remove</Button> },
            ]}
          />
        </div>
      )}
    </div>
  );
}
