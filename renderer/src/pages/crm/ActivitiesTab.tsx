import { useMemo, useState } from 'react';
import { useCursorList } from '../../api/paging.js';
import { LoadMore } from '../../components/LoadMore.js';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { Loading, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Select } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill, humanize, type Tone } from '../../components/Pill.js';

import { useShortcut } from '../../shortcuts/registry.js';
import { ACTIVITY_STATUSES, CHANNEL_LABEL, crmBase, crmKey, useOutboxes, type BulkApproveResult, type CrmActivity } from './crm-api.js';
import { RelativeTime } from '../../components/RelativeTime.js';

const TONE: Record<string, Tone> = {
  draft_pending_approval: 'amber',
  sent: 'green',
  sent_dryrun: 'violet',
  blocked_by_allowlist: 'red',
  blocked_by_quota: 'amber',
  failed: 'red',
  sending: 'blue',
  rejected: 'neutral',
};
const LABEL: Record<string, string> = { draft_pending_approval: 'needs approval', sent_dryrun: 'sent (dry run)', blocked_by_allowlist: 'blocked: allowlist', blocked_by_quota: 'blocked: quota' };

/** What the message says, in one line: subject, title or text, whatever the channel's payload has. */
function preview(a: CrmActivity): string {
  const p = a.payload;
  const pick = ['subject', 'title', 'summary', 'text', 'body', 'message'].map((k) => p[k]).find((v) => typeof v === 'string' && v.trim());
  return typeof pick === 'string' ? pick : JSON.stringify(p).slice(0, 120);
}

export function ActivitiesTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const [status, setStatus] = useState<string>('draft_pending_approval');
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [open, setOpen] = useState<string | null>(null);
  const activities = useCursorList<CrmActivity>(crmKey(companyId, 'activities'), `${crmBase(companyId)}/activities`, { status: status || undefined });
  const outboxes = useOutboxes(companyId);
  const outboxName = useMemo(() => new Map((outboxes.data ?? []).map((o) => [o.id, o.name])), [outboxes.data]);
  const invalidate = [['company', companyId, 'crm']];
  const approve = useAction((id: string) => api.post<CrmActivity>(`${crmBase(companyId)}/activities/${id}/approve`, {}), {
    success: (a) => `Approved: ${humanize(LABEL[a.status] ?? a.status)}`,
    errorTitle: 'Could not approve',
    invalidate,
  });
  const reject = useAction((id: string) => api.post<CrmActivity>(`${crmBase(companyId)}/activities/${id}/reject`, {}), { success: 'Rejected: it will not be sent', errorTitle: 'Could not reject', invalidate });
  const bulk = useAction((ids: string[]) => api.post<BulkApproveResult>(`${crmBase(companyId)}/approvals/bulk-approve`, { approvalIds: ids }), {
    success: (r) => {
      const sent = r.results.filter((a) => a.status === 'sent' || a.status === 'sent_dryrun').length;
      return `${r.approved} approved · ${sent} sent${r.results.length > sent ? ` · ${r.results.length - sent} not sent (see their status)` : ''}`;
    },
    errorTitle: 'Could not approve these drafts',
    invalidate,
    onSuccess: () => setSelected(new Set()),
  });
  const items = activities.items;
  const drafts = items.filter((a) => a.status === 'draft_pending_approval');
  const allSelected = drafts.length > 0 && drafts.every((d) => selected.has(d.id));
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const chosen = drafts.filter((d) => selected.has(d.id)).map((d) => d.id);
  useShortcut('A', 'Approve the selected drafts', () => chosen.length && !bulk.isPending && bulk.mutate(chosen), { group: 'CRM', enabled: chosen.length > 0 });

  return (
    <div className="stack">
      <div className="filters" role="search" aria-label="Filter activities">
        <Select label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setSelected(new Set()); }} options={[{ value: '', label: 'Any status' }, ...ACTIVITY_STATUSES.map((s) => ({ value: s, label: humanize(LABEL[s] ?? s) }))]} />
        <span className="spacer" />
        {drafts.length ? (
          <div className="row bulk-bar">
            <label className="row muted">
              <input type="checkbox" checked={allSelected} onChange={() => setSelected(allSelected ? new Set() : new Set(drafts.map((d) => d.id)))} aria-label="Select every draft" /> Select all drafts
            </label>
            <Button variant="primary" disabled={chosen.length === 0} busy={bulk.isPending} onClick={() => bulk.mutate(chosen)} title="Shift+A">
              Approve {chosen.length || ''} selected
            </Button>
          </div>
        ) : null}
      </div>
      {activities.isPending ? (
        <Loading />
      ) : activities.isError ? (
        <ErrorBox error={activities.error} retry={() => void activities.refetch()} />
      ) : items.length === 0 && !activities.hasMore ? (
        <EmptyState title={status === 'draft_pending_approval' ? 'Nothing waits for your approval' : 'No activities'}>
          When an agent sends a message that an approval rule queues for you, it appears here to approve or reject.
        </EmptyState>
      ) : (
        <ul className="list activity-list" aria-label="Activities">
          {items.map((a) => (
            <li key={a.id} className="activity">
              <div className="list-item activity-row">
                {a.status === 'draft_pending_approval' ? (
                  <input type="checkbox" checked={selected.has(a.id)} onChange={() => toggle(a.id)} aria-label={`Select the message to ${a.to}`} />
                ) : (
                  <span className="activity-check-spacer" />
                )}
                <Pill tone={TONE[a.status] ?? 'neutral'}>{LABEL[a.status] ?? humanize(a.status)}</Pill>
                <button type="button" className="activity-main" aria-expanded={open === a.id} onClick={() => setOpen(open === a.id ? null : a.id)}>
                  <span className="activity-to">{a.to}</span>
                  <span className="muted ellipsis">{preview(a)}</span>
                </button>
                <span className="muted activity-meta">{CHANNEL_LABEL[a.channel] ?? a.channel} · {outboxName.get(a.outboxId) ?? 'outbox'} · <RelativeTime iso={a.createdAt} /></span>
                {a.status === 'draft_pending_approval' ? (
                  <div className="row">
                    <Button size="sm" variant="primary" busy={approve.isPending && approve.variables === a.id} onClick={() => approve.mutate(a.id)} aria-label={`Approve the message to ${a.to}`}>Approve</Button>
                    <Button size="sm" variant="ghost" busy={reject.isPending && reject.variables === a.id} onClick={() => reject.mutate(a.id)} aria-label={`Reject the message to ${a.to}`}>Reject</Button>
                  </div>
                ) : null}
              </div>
              {open === a.id ? <ActivityDetail a={a} /> : null}
            </li>
          ))}
        </ul>
      )}
      {activities.hasMore ? <LoadMore loading={activities.loadingMore} onVisible={activities.loadMore} label="Load older activities" /> : null}
    </div>
  );
}

function ActivityDetail({ a }: { a: CrmActivity }) {
  return (
    <div className="activity-detail">
      <dl className="kv">
        <dt>Kind</dt><dd>{a.kind}</dd>
        <dt>From</dt><dd>{a.actorType}{a.actorId ? ` ${a.actorId.slice(0, 8)}` : ''} · {a.origin}</dd>
        {a.tags.length ? (<><dt>Tags</dt><dd className="row-wrap">{a.tags.map((t) => <Pill key={t}>{t}</Pill>)}</dd></>) : null}
        {a.niche ? (<><dt>Niche</dt><dd>{a.niche}</dd></>) : null}
        {a.decision ? (<><dt>Decision</dt><dd>{humanize(a.decision)}{a.decidedAt ? <> · <RelativeTime iso={a.decidedAt} /></> : null}</dd></>) : null}
        {a.sentAt ? (<><dt>Sent</dt><dd><RelativeTime iso={a.sentAt} />{a.dryRun ? ' (dry run: nothing left)' : ''}</dd></>) : null}
        {a.errorMessage ? (<><dt>Error</dt><dd className="tone-red">{a.errorCode ? `${a.errorCode}: ` : ''}{a.errorMessage}</dd></>) : null}
        {a.possiblySent ? (<><dt>Warning</dt><dd>Interrupted during sending: the message may have left.</dd></>) : null}
      </dl>
      <pre className="activity-payload">{JSON.stringify(a.payload, null, 2)}</pre>
    </div>
  );
}
