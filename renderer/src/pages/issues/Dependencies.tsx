import { useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction, useLabels } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { IssueDetail } from '../../api/types.js';
import { Section, Card } from '../../components/Page.js';
import { Pill } from '../../components/Pill.js';
import { Button } from '../../components/Button.js';
import { Input } from '../../components/Field.js';
import { href } from '../../app/router.js';
import { LabelChips } from './IssueLinks.js';

/** Blocked by / blocks, with add and remove. Checkout waits until every blocker is done. */
export function Dependencies({ issue, companyId }: { issue: IssueDetail; companyId: string }) {
  const api = useApi();
  // Each linked issue by id (a handful), not a first page of the company's issues: a blocker beyond
  // it would otherwise show without its identifier and title.
  const linked = [...new Set([...issue.blockedBy, ...issue.blocks])];
  const others = useQueries({ queries: linked.map((id) => ({ queryKey: keys.issue(id), queryFn: () => api.get<IssueDetail>(`/api/issues/${id}`) })) });
  const byId = new Map(others.flatMap((q) => (q.data ? [[q.data.id, q.data] as const] : [])));
  const [ref, setRef] = useState('');
  const invalidate = [keys.issue(issue.identifier), keys.issue(issue.id), keys.issues(companyId)];
  const add = useAction((blockerIssueId: string) => api.post(`/api/issues/${issue.id}/blockers`, { blockerIssueId }), { errorTitle: 'Could not add the blocker', invalidate, onSuccess: () => setRef('') });
  const remove = useAction((blockerIssueId: string) => api.delete(`/api/issues/${issue.id}/blockers/${blockerIssueId}`), { errorTitle: 'Could not remove the blocker', invalidate });
  const row = (id: string, removable: boolean) => {
    const other = byId.get(id);
    return (
      <div key={id} className="list-item" role="listitem">
        <a className="mono" href={href(`/issues/${other?.identifier ?? id}`)}>{other?.identifier ?? 'Issue'}</a>
        <span className="grow ellipsis">{other?.title ?? ''}</span>
        {other ? <Pill status={other.status} /> : null}
        {removable ? <Button size="sm" variant="ghost" aria-label={`Remove blocker ${other?.identifier ?? id}`} onClick={() => remove.mutate(id)}>Remove</Button> : null}
      </div>
    );
  };
  const open = issue.openBlockerIds.length;
  return (
    <Section title="Dependencies">
      <Card>
        <div className="stack">
          {open > 0 ? (
            <div className="banner" role="status">Waits for {open} unfinished issue{open === 1 ? '' : 's'}: it cannot be checked out, and its assignee is woken when the last one is done.</div>
          ) : null}
          <div>
            <div className="muted" style={{ fontSize: 12, marginBottom: 4 }}>Blocked by</div>
            {issue.blockedBy.length === 0 ? <span className="faint">Nothing</span> : <div className="list" role="list" aria-label="Blocked by">{issue.blockedBy.map((id) => row(id, true))}</div>}
          </div>
          <div>
            <div className="muted" style={{ fontSize: 12, marginBottom: 4 }}>Blocks</div>
            {issue.blocks.length === 0 ? <span className="faint">Nothing</span> : <div className="list" role="list" aria-label="Blocks">{issue.blocks.map((id) => row(id, false))}</div>}
          </div>
          <form
            className="row"
            style={{ alignItems: 'end' }}
            onSubmit={(e) => {
              e.preventDefault();
              if (ref.trim()) add.mutate(ref.trim());
            }}
          >
            <div className="grow">
              <Input label="Add a blocker" placeholder="Issue id, e.g. ACME-7" value={ref} onChange={(e) => setRef(e.target.value)} />
            </div>
            <Button type="submit" busy={add.isPending} disabled={!ref.trim()}>Add</Button>
          </form>
        </div>
      </Card>
    </Section>
  );
}

/** The issue's labels: chips, and a toggle per company label. */
export function IssueLabels({ issue, companyId, onChange }: { issue: IssueDetail; companyId: string; onChange: (labelIds: string[]) => void }) {
  const api = useApi();
  const labels = useLabels(companyId);
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState('');
  const [color, setColor] = useState('#6d5dfc');
  const create = useAction((body: { name: string; color: string }) => api.post<{ id: string }>(`/api/companies/${companyId}/labels`, body), {
    errorTitle: 'Could not create the label',
    invalidate: [keys.labels(companyId)],
    onSuccess: (label) => {
      setName('');
      onChange([...issue.labelIds, label.id]);
    },
  });
  return (
    <Card>
      <div className="row" style={{ marginBottom: 6 }}>
        <span className="muted grow" style={{ fontSize: 12 }}>Labels</span>
        <Button size="sm" variant="ghost" onClick={() => setEditing(!editing)}>{editing ? 'Done' : 'Edit'}</Button>
      </div>
      {issue.labelIds.length === 0 && !editing ? <span className="faint">None</span> : <LabelChips ids={issue.labelIds} labels={labels.data} />}
      {editing ? (
        <div className="stack-sm" style={{ marginTop: 8 }} role="group" aria-label="Labels of this issue">
          {(labels.data ?? []).length === 0 ? <span className="faint">No labels yet: create the first one below.</span> : null}
          {(labels.data ?? []).map((l) => {
            const on = issue.labelIds.includes(l.id);
            return (
              <label key={l.id} className="row" style={{ gap: 6 }}>
                <input type="checkbox" checked={on} onChange={() => onChange(on ? issue.labelIds.filter((id) => id !== l.id) : [...issue.labelIds, l.id])} />
                <span className="label-chip" style={{ ['--label-color' as string]: l.color }}>{l.name}</span>
              </label>
            );
          })}
          <form
            className="row"
            style={{ gap: 6, alignItems: 'end' }}
            onSubmit={(e) => {
              e.preventDefault();
              if (name.trim()) create.mutate({ name: name.trim(), color });
            }}
          >
            <div className="grow"><Input label="New label" value={name} onChange={(e) => setName(e.target.value)} placeholder="bug" /></div>
            <input type="color" aria-label="Label color" value={color} onChange={(e) => setColor(e.target.value)} style={{ width: 32, height: 32, padding: 0, border: 'none', background: 'none' }} />
            <Button type="submit" size="sm" busy={create.isPending} disabled={!name.trim()}>Add</Button>
          </form>
        </div>
      ) : null}
    </Card>
  );
}
