import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Answers, AskUserQuestionsPayload, Interaction, RequestConfirmationPayload, SuggestTasksPayload } from '../../api/types.js';
import { Section, Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Checkbox, Textarea } from '../../components/Field.js';
import { Pill } from '../../components/Pill.js';
import { timeAgo } from '../../app/format.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

/** Interaction cards: what agents ask of the board on this issue. Pending ones first. */
export function Interactions({ issueId, focusId }: { issueId: string; focusId?: string | null }) {
  const api = useApi();
  const list = useQuery({ queryKey: keys.issue(issueId, 'interactions'), queryFn: () => allArrayPages<Interaction>(api, `/api/issues/${issueId}/interactions`) });
  const items = [...(list.data ?? [])].sort((a, b) => Number(b.status === 'pending') - Number(a.status === 'pending') || (a.createdAt < b.createdAt ? 1 : -1));
  if (items.length === 0) return null;
  return (
    <Section title="Interactions">
      <div className="stack">
        {items.map((i) => (
          <InteractionCard key={i.id} issueId={issueId} interaction={i} focused={i.id === focusId} />
        ))}
      </div>
    </Section>
  );
}

function InteractionCard({ issueId, interaction: i, focused }: { issueId: string; interaction: Interaction; focused: boolean }) {
  const api = useApi();
  const base = `/api/issues/${issueId}/interactions/${i.id}`;
  const inv = [keys.issue(issueId)];
  const accept = useAction((body: Record<string, unknown> | undefined) => api.post<Interaction>(`${base}/accept`, body ?? {}), { success: 'Accepted', invalidate: inv, errorTitle: 'Could not accept' });
  const reject = useAction((reason: string) => api.post<Interaction>(`${base}/reject`, reason ? { reason } : {}), { success: 'Rejected', invalidate: inv, errorTitle: 'Could not reject' });
  const respond = useAction((answers: Answers) => api.post<Interaction>(`${base}/respond`, { answers }), { success: 'Answers sent', invalidate: inv, errorTitle: 'Could not send the answers' });
  const pending = i.status === 'pending';
  // A deep link (`&interaction=<id>`, from a desktop notification) brings its card into view.
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'center' });
  }, [focused]);
  return (
    <div ref={ref} id={`interaction-${i.id}`} className={focused ? 'focus-ring' : undefined}>
    <Card>
      <div className="row" style={{ marginBottom: 6 }}>
        <Pill tone="violet">{i.kind === 'request_confirmation' ? 'Confirmation' : i.kind === 'ask_user_questions' ? 'Questions' : 'Suggested tasks'}</Pill>
        <strong className="grow">{i.title}</strong>
        <Pill status={i.status} />
        <span className="faint"><RelativeTime iso={i.createdAt} /></span>
      </div>
      {i.summary ? <div className="markdown muted" style={{ marginBottom: 8 }}>{i.summary}</div> : null}
      {i.kind === 'request_confirmation' ? (
        <Confirmation payload={i.payload as unknown as RequestConfirmationPayload} pending={pending} busy={accept.isPending || reject.isPending} onAccept={() => accept.mutate(undefined)} onReject={(r) => reject.mutate(r)} />
      ) : i.kind === 'suggest_tasks' ? (
        <Suggestions payload={i.payload as unknown as SuggestTasksPayload} pending={pending} busy={accept.isPending || reject.isPending} onAccept={(keysSel) => accept.mutate({ selectedClientKeys: keysSel })} onReject={(r) => reject.mutate(r)} />
      ) : (
        <Questions payload={i.payload as unknown as AskUserQuestionsPayload} pending={pending} busy={respond.isPending} onSubmit={(a) => respond.mutate(a)} />
      )}
      {!pending && i.resolution ? <div className="faint" style={{ marginTop: 6 }}>{resolutionText(i)}</div> : null}
    </Card>
    </div>
  );
}

function resolutionText(i: Interaction): string {
  const r = i.resolution ?? {};
  if (i.status === 'rejected' && typeof r.reason === 'string' && r.reason) return `Rejected: ${r.reason}`;
  if (i.status === 'superseded') return `Superseded${typeof r.reason === 'string' ? `: ${r.reason}` : ''}`;
  return `${i.status} ${timeAgo(i.resolvedAt)}`;
}

function RejectBox({ label, required, busy, onReject, rejectLabel }: { label: string; required: boolean; busy: boolean; onReject: (r: string) => void; rejectLabel: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  if (!open) return <Button onClick={() => setOpen(true)} disabled={busy}>{rejectLabel}</Button>;
  return (
    <div className="stack-sm grow">
      <Textarea label={`${label}${required ? ' *' : ''}`} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
      <div className="row">
        <Button variant="danger" busy={busy} disabled={required && !reason.trim()} onClick={() => onReject(reason.trim())}>{rejectLabel}</Button>
        <Button variant="ghost" onClick={() => setOpen(false)}>Cancel</Button>
      </div>
    </div>
  );
}

function Confirmation({ payload: p, pending, busy, onAccept, onReject }: { payload: RequestConfirmationPayload; pending: boolean; busy: boolean; onAccept: () => void; onReject: (r: string) => void }) {
  return (
    <div className="stack-sm">
      <div>{p.prompt}</div>
      {p.detailsMarkdown ? <div className="markdown muted">{p.detailsMarkdown}</div> : null}
      {p.target ? <div className="faint">About document “{p.target.key}”, revision {p.target.revisionNumber}</div> : null}
      {pending ? (
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Button variant="primary" busy={busy} onClick={onAccept}>{p.acceptLabel}</Button>
          <RejectBox label={p.rejectReasonLabel} required={p.rejectRequiresReason} busy={busy} onReject={onReject} rejectLabel={p.rejectLabel} />
        </div>
      ) : null}
    </div>
  );
}

function Suggestions({ payload: p, pending, busy, onAccept, onReject }: { payload: SuggestTasksPayload; pending: boolean; busy: boolean; onAccept: (keys: string[]) => void; onReject: (r: string) => void }) {
  const [selected, setSelected] = useState<Set<string>>(() => new Set(p.tasks.map((t) => t.clientKey)));
  return (
    <div className="stack-sm">
      {p.tasks.map((t) => (
        <div key={t.clientKey} className="row" style={{ alignItems: 'flex-start' }}>
          {pending ? (
            <Checkbox
              label={t.title}
              checked={selected.has(t.clientKey)}
              onChange={(e) => {
                const next = new Set(selected);
                if (e.target.checked) next.add(t.clientKey);
                else next.delete(t.clientKey);
                setSelected(next);
              }}
            />
          ) : (
            <span>• {t.title}</span>
          )}
          {t.priority && t.priority !== 'medium' ? <Pill status={t.priority} /> : null}
        </div>
      ))}
      {pending ? (
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <Button variant="primary" busy={busy} disabled={selected.size === 0} onClick={() => onAccept([...selected])}>Create {selected.size} task{selected.size === 1 ? '' : 's'}</Button>
          <RejectBox label="Reason" required={false} busy={busy} onReject={onReject} rejectLabel="Reject" />
        </div>
      ) : null}
    </div>
  );
}

function Questions({ payload: p, pending, busy, onSubmit }: { payload: AskUserQuestionsPayload; pending: boolean; busy: boolean; onSubmit: (a: Answers) => void }) {
  const [answers, setAnswers] = useState<Answers>({});
  const complete = p.questions.every((q) => {
    const a = answers[q.id];
    return q.kind === 'text' ? typeof a === 'string' && a.trim() !== '' : Array.isArray(a) ? a.length > 0 : typeof a === 'string' && a !== '';
  });
  return (
    <form className="stack" onSubmit={(e) => (e.preventDefault(), onSubmit(answers))}>
      {p.questions.map((q) => (
        <fieldset key={q.id} className="stack-sm" style={{ border: 0, padding: 0, margin: 0 }} disabled={!pending}>
          <legend style={{ fontWeight: 500, marginBottom: 4 }}>{q.prompt}</legend>
          {q.kind === 'text' ? (
            <Textarea label="Answer" rows={2} value={String(answers[q.id] ?? '')} onChange={(e) => setAnswers({ ...answers, [q.id]: e.target.value })} />
          ) : (
            (q.options ?? []).map((o) => (
              <label key={o.id} className="checkbox">
                <input
                  type={q.kind === 'single' ? 'radio' : 'checkbox'}
                  name={`${q.id}`}
                  checked={q.kind === 'single' ? answers[q.id] === o.id : ((answers[q.id] as string[] | undefined) ?? []).includes(o.id)}
                  onChange={(e) => {
                    if (q.kind === 'single') setAnswers({ ...answers, [q.id]: o.id });
                    else {
                      const cur = new Set((answers[q.id] as string[] | undefined) ?? []);
                      if (e.target.checked) cur.add(o.id);
                      else cur.delete(o.id);
                      setAnswers({ ...answers, [q.id]: [...cur] });
                    }
                  }}
                />
                {o.label}
              </label>
            ))
          )}
        </fieldset>
      ))}
      {pending ? (
        <div>
          <Button type="submit" variant="primary" busy={busy} disabled={!complete}>Send answers</Button>
        </div>
      ) : null}
    </form>
  );
}
