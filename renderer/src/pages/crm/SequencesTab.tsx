import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { Loading, ErrorBox } from '../../components/Page.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill, humanize } from '../../components/Pill.js';
import { formatDateTime } from '../../app/format.js';
import { crmBase, crmKey, useOutboxes, type Enrollment, type Sequence } from './crm-api.js';
import { allArrayPages } from '../../api/array-pages.js';

const DAYS = ['', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** Sequences (multi-step outreach) with their enrollments. Agents create them through the API. */
export function SequencesTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const sequences = useQuery({
    queryKey: crmKey(companyId, 'sequences'),
    queryFn: async () => {
      try {
        return await allArrayPages<Sequence>(api, `${crmBase(companyId)}/sequences`);
      } catch (err) {
        if ((err as { status?: number }).status === 404) return null;
        throw err;
      }
    },
  });
  const outboxes = useOutboxes(companyId);
  const [open, setOpen] = useState<string | null>(null);
  if (sequences.isPending) return <Loading />;
  if (sequences.isError) return <ErrorBox error={sequences.error} retry={() => void sequences.refetch()} />;
  if (sequences.data === null) return <EmptyState title="Sequences are not available on this server" />;
  if (sequences.data.length === 0) return <EmptyState title="No sequences">A sequence sends a series of messages over days (a first note, then follow-ups), inside a send window. Agents set them up through the API.</EmptyState>;
  return (
    <ul className="list" aria-label="Sequences">
      {sequences.data.map((s) => (
        <li key={s.id} className="sequence">
          <button type="button" className="list-item sequence-row" aria-expanded={open === s.id} onClick={() => setOpen(open === s.id ? null : s.id)}>
            <strong className="grow">{s.name}</strong>
            <span className="muted">{s.steps.length} steps · {outboxes.data?.find((o) => o.id === s.outboxId)?.name ?? 'outbox'} · {s.sendWindow.weekdays.map((d) => DAYS[d]).join(' ')} {s.sendWindow.start}–{s.sendWindow.end} {s.sendWindow.tz}</span>
            <Pill status={s.status}>{humanize(s.status)}</Pill>
          </button>
          {open === s.id ? <Enrollments companyId={companyId} sequenceId={s.id} /> : null}
        </li>
      ))}
    </ul>
  );
}

function Enrollments({ companyId, sequenceId }: { companyId: string; sequenceId: string }) {
  const api = useApi();
  const list = useQuery({ queryKey: crmKey(companyId, 'enrollments', sequenceId), queryFn: () => api.get<Enrollment[] | { items: Enrollment[] }>(`${crmBase(companyId)}/sequences/${sequenceId}/enrollments`) });
  if (list.isPending) return <Loading />;
  if (list.isError) return <ErrorBox error={list.error} />;
  const items = Array.isArray(list.data) ? list.data : list.data.items;
  if (items.length === 0) return <div className="muted sequence-empty">Nobody is enrolled.</div>;
  return (
    <table className="table" aria-label="Enrollments">
      <thead><tr><th scope="col">Contact</th><th scope="col">Status</th><th scope="col">Step</th><th scope="col">Next</th><th scope="col">Last outcome</th></tr></thead>
      <tbody>
        {items.map((e) => (
          <tr key={e.id}>
            <td className="mono">{e.contact}</td>
            <td><Pill status={e.status}>{humanize(e.status)}</Pill></td>
            <td>{e.stepIndex + 1}</td>
            <td>{e.nextAt ? formatDateTime(e.nextAt) : '—'}</td>
            <td className="muted">{e.lastOutcome ? humanize(e.lastOutcome) : ''}{e.stopReason ? ` · ${e.stopReason}` : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
