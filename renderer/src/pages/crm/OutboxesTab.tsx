import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Secret } from '../../api/types.js';
import { Loading, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { formatDateTime } from '../../app/format.js';
import { useShortcut } from '../../shortcuts/registry.js';
import { CHANNELS, CHANNEL_LABEL, crmBase, useOutboxes, useQuota, type Outbox } from './crm-api.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

const CONFIG_EXAMPLE: Record<string, string> = {
  email: '{\n  "host": "smtp.example.com",\n  "port": 587,\n  "fromAddress": "me@example.com",\n  "username": "me@example.com"\n}',
  calendar: '{\n  "host": "smtp.example.com",\n  "port": 587,\n  "fromAddress": "me@example.com"\n}',
  network_a: '{\n  "baseUrl": "https://api.example.com"\n}',
  messaging_a: '{\n  "baseUrl": "https://api.example.com"\n}',
  social_a: '{\n  "baseUrl": "https://api.example.com"\n}',
  'dry-run': '{}',
};

/** Outboxes (one sending identity per channel) with today's quota. */
export function OutboxesTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const outboxes = useOutboxes(companyId);
  const quota = useQuota(companyId);
  const [creating, setCreating] = useState(false);
  const remove = useAction((o: Outbox) => api.delete(`${crmBase(companyId)}/outboxes/${o.id}`), { success: 'Outbox deleted', errorTitle: 'Could not delete the outbox', invalidate: [['company', companyId, 'crm']] });
  const byOutbox = useMemo(() => new Map((quota.data ?? []).map((q) => [q.outboxId, q])), [quota.data]);
  useShortcut('n', 'New outbox', () => setCreating(true), { group: 'CRM' });
  if (outboxes.isPending) return <Loading />;
  if (outboxes.isError) return <ErrorBox error={outboxes.error} retry={() => void outboxes.refetch()} />;
  return (
    <div className="stack">
      <div className="row">
        <span className="spacer" />
        <Button variant="primary" onClick={() => setCreating(true)} title="n">New outbox</Button>
      </div>
      {outboxes.data.length === 0 ? (
        <EmptyState title="No outboxes" action={<Button variant="primary" onClick={() => setCreating(true)}>New outbox</Button>}>
          An outbox is how agents send on one channel: an e-mail account, a calendar, a messaging account. Start with a dry-run outbox to see what they would send.
        </EmptyState>
      ) : (
        <div className="grid-2">
          {outboxes.data.map((o) => {
            const q = byOutbox.get(o.id);
            const cap = q?.cap ?? o.dailyCap ?? 50;
            const used = q?.used ?? 0;
            const pct = Math.min(100, Math.round((used / Math.max(1, cap)) * 100));
            return (
              <div key={o.id} className="card outbox-card" role="group" aria-label={`Outbox ${o.name}`}>
                <div className="row">
                  <strong className="grow ellipsis">{o.name}</strong>
                  <Pill tone={o.channel === 'dry-run' ? 'violet' : 'blue'}>{CHANNEL_LABEL[o.channel] ?? o.channel}</Pill>
                </div>
                <div className="muted outbox-meta">
                  {o.niche ? <span>niche {o.niche}</span> : null}
                  <span>{o.secretRef ? 'credentials from a secret' : 'no secret'}</span>
                  <span>since <RelativeTime iso={o.createdAt} /></span>
                </div>
                <div className="quota" aria-label={`Quota today: ${used} of ${cap} used`}>
                  <div className="quota-label"><span>Today</span><span className="muted">{used} / {cap} sent{q ? ` · resets ${formatDateTime(q.resetsAt)}` : ''}</span></div>
                  <div className="quota-bar"><span className={pct >= 100 ? 'quota-full' : pct >= 80 ? 'quota-warn' : ''} style={{ width: `${pct}%` }} /></div>
                </div>
                <div className="row" style={{ justifyContent: 'flex-end' }}>
                  <Button size="sm" variant="ghost" busy={remove.isPending && remove.variables?.id === o.id} onClick={() => remove.mutate(o)} aria-label={`Delete outbox ${o.name}`}>Delete</Button>
                </div>
              </div>
            );
          })}
        </div>
      )}
      {creating ? <OutboxDialog companyId={companyId} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

function OutboxDialog({ companyId, onClose }: { companyId: string; onClose: () => void }) {
  const api = useApi();
  const secrets = useQuery({ queryKey: keys.secrets(companyId), queryFn: () => allArrayPages<Secret>(api, `/api/companies/${companyId}/secrets`) });
  const [channel, setChannel] = useState<(typeof CHANNELS)[number]>('dry-run');
  const [name, setName] = useState('');
  const [niche, setNiche] = useState('');
  const [secretId, setSecretId] = useState('');
  const [config, setConfig] = useState(CONFIG_EXAMPLE['dry-run']!);
  const [cap, setCap] = useState('');
  const [configError, setConfigError] = useState<string | null>(null);
  const create = useAction(
    (body: Record<string, unknown>) => api.post<Outbox>(`${crmBase(companyId)}/outboxes`, body),
    { success: (o) => `Outbox ${o.name} created`, errorTitle: 'Could not create the outbox', invalidate: [['company', companyId, 'crm']], onSuccess: onClose },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    let parsed: Record<string, unknown>;
    try {
      parsed = config.trim() ? (JSON.parse(config) as Record<string, unknown>) : {};
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('must be a JSON object');
    } catch (err) {
      setConfigError(`Configuration ${(err as Error).message}`);
      return;
    }
    setConfigError(null);
    create.mutate({
      channel,
      ...(name.trim() ? { name: name.trim() } : {}),
      ...(niche.trim() ? { niche: niche.trim() } : {}),
      ...(secretId ? { secretRef: `secret://${secretId}:latest` } : {}),
      config: parsed,
      ...(cap ? { dailyCap: Number(cap) } : {}),
    });
  };
  return (
    <Dialog
      open
      wide
      title="New outbox"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="outbox-form" busy={create.isPending}>Create outbox</Button>
        </>
      }
    >
      <form id="outbox-form" className="form" onSubmit={submit}>
        <div className="form-row">
          <Select label="Channel" value={channel} onChange={(e) => { const c = e.target.value as (typeof CHANNELS)[number]; setChannel(c); setConfig(CONFIG_EXAMPLE[c] ?? '{}'); }} options={CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABEL[c] ?? c }))} />
          <Input label="Name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Defaults to the channel" />
        </div>
        <div className="form-row">
          <Input label="Niche" value={niche} onChange={(e) => setNiche(e.target.value)} placeholder="e.g. dental-clinics" hint="Rules can match on it." />
          <Input label="Daily cap" type="number" min={1} value={cap} onChange={(e) => setCap(e.target.value)} placeholder="50" hint="Sends per UTC day." />
        </div>
        <Select
          label="Credentials"
          value={secretId}
          onChange={(e) => setSecretId(e.target.value)}
          options={[{ value: '', label: 'None' }, ...(secrets.data ?? []).map((s) => ({ value: s.id, label: `${s.name} (latest version)` }))]}
          hint="From Secrets: the API token (network, messaging, social), or for e-mail the SMTP password, or a whole smtp:// or smtps:// URL (then the configuration needs only fromAddress). A dry-run outbox ignores it."
        />
        <Textarea label="Configuration (JSON)" className="input textarea mono" rows={7} value={config} onChange={(e) => setConfig(e.target.value)} error={configError} spellCheck={false} />
      </form>
    </Dialog>
  );
}
