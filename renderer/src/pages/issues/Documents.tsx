import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { ApiError } from '../../api/client.js';
import type { DocumentRevision, IssueDetail, IssueDocument } from '../../api/types.js';
import { Section, Card, Loading, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Input, Textarea } from '../../components/Field.js';
import { DiffView } from '../../components/DiffView.js';
import { textDiff } from '../../app/config-diff.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { DocumentView } from './DocumentView.js';
import { toastSuccess } from '../../stores/ui.js';
import { allArrayPages } from '../../api/array-pages.js';


export function Documents({ issue, focusKey }: { issue: IssueDetail; focusKey?: string | null }) {
  const [open, setOpen] = useState<string | null>(focusKey ?? null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState(false);
  // A link to a document (`?doc=plan`, from the timeline) opens it, also when the page is already shown.
  const [focused, setFocused] = useState(focusKey ?? null);
  if ((focusKey ?? null) !== focused) {
    setFocused(focusKey ?? null);
    if (focusKey) {
      setOpen(focusKey);
      setEditing(false);
    }
  }
  const docs = issue.documentSummaries;
  return (
    <Section title="Documents" actions={<Button size="sm" onClick={() => (setCreating(true), setOpen(null), setEditing(false))}>New document</Button>}>
      <div className="stack">
        {docs.length === 0 && !creating ? <div className="faint">No documents yet. Add a plan or design with “New document”; agents write theirs here too, with every revision kept.</div> : null}
        {docs.length ? (
          <div className="list" aria-label="Documents">
            {docs.map((d) => (
              <button key={d.key} type="button" className="list-item" style={{ background: 'none', border: 0, borderBottom: '1px solid var(--border)', textAlign: 'left', font: 'inherit', color: 'inherit', cursor: 'pointer' }} aria-expanded={open === d.key} onClick={() => (setOpen(open === d.key ? null : d.key), setCreating(false), setEditing(false))}>
                <span className="mono faint">{d.key}</span>
                <span className="grow">{d.title}</span>
                <span className="faint">rev {d.revisionNumber} · <RelativeTime iso={d.updatedAt} /></span>
              </button>
            ))}
          </div>
        ) : null}
        {creating ? <NewDocument issueId={issue.id} onDone={(key) => (setCreating(false), setOpen(key), setEditing(true))} onCancel={() => setCreating(false)} /> : null}
        {open && editing ? <DocumentEditor key={open} issueId={issue.id} docKey={open} onClose={() => setEditing(false)} /> : null}
        {open && !editing ? <DocumentView key={open} issueId={issue.id} docKey={open} onEdit={() => setEditing(true)} reveal={open === focused} /> : null}
      </div>
    </Section>
  );
}

function NewDocument({ issueId, onDone, onCancel }: { issueId: string; onDone: (key: string) => void; onCancel: () => void }) {
  const api = useApi();
  const [key, setKey] = useState('plan');
  const [title, setTitle] = useState('Plan');
  const create = useAction(() => api.put<IssueDocument>(`/api/issues/${issueId}/documents/${key}`, { title: title.trim(), format: 'markdown', body: '' }), {
    errorTitle: 'Could not create the document',
    invalidate: [keys.issue(issueId)],
    onSuccess: (d) => onDone(d.key),
  });
  return (
    <Card>
      <form className="form" onSubmit={(e) => (e.preventDefault(), create.mutate(undefined))}>
        <div className="form-row">
          <Input label="Key" value={key} onChange={(e) => setKey(e.target.value.toLowerCase())} hint="a-z, 0-9, _ and -; e.g. plan, design, notes" />
          <Input label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
        </div>
        <div className="row">
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!key || !title.trim()}>Create</Button>
          <Button variant="ghost" onClick={onCancel}>Cancel</Button>
        </div>
      </form>
    </Card>
  );
}

interface Conflict {
  theirs: IssueDocument;
}

/**
 * Edits a document against the revision it was loaded at. A save that lost a race (409
 * stale_revision) keeps the user's text and shows what changed meanwhile, with the choice to
 * overwrite or to take the newer text.
 */
function DocumentEditor({ issueId, docKey, onClose }: { issueId: string; docKey: string; onClose: () => void }) {
  const api = useApi();
  const qc = useQueryClient();
  const path = `/api/issues/${issueId}/documents/${docKey}`;
  const doc = useQuery({ queryKey: keys.issue(issueId, `doc:${docKey}`), queryFn: () => api.get<IssueDocument>(path) });
  const revisions = useQuery({ queryKey: keys.issue(issueId, `revisions:${docKey}`), queryFn: () => allArrayPages<DocumentRevision>(api, `${path}/revisions`) });
  const [body, setBody] = useState<string | null>(null);
  const [base, setBase] = useState<IssueDocument | null>(null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [viewing, setViewing] = useState<DocumentRevision | null>(null);

  // Adopt the server's text until the user starts typing; afterwards live updates never clobber it.
  // Only a new server revision re-syncs (adjusted during render); body and base are read, not tracked.
  const [synced, setSynced] = useState<IssueDocument | undefined>(undefined);
  if (doc.data !== synced) {
    setSynced(doc.data);
    if (doc.data && (body === null || body === base?.body)) {
      setBase(doc.data);
      setBody(doc.data.body);
    }
  }

  const save = useAction(
    (v: { text: string; baseRevisionId: string }) => api.put<IssueDocument>(path, { title: base?.title ?? docKey, format: base?.format ?? 'markdown', body: v.text, baseRevisionId: v.baseRevisionId }),
    {
      handled: (err) => err instanceof ApiError && err.status === 409,
      onSuccess: (d) => {
        setBase(d);
        setBody(d.body);
        setConflict(null);
        toastSuccess(`Saved revision ${d.revisionNumber}`);
        void qc.invalidateQueries({ queryKey: keys.issue(issueId) });
      },
    },
  );
  useEffect(() => {
    const err = save.error;
    if (err instanceof ApiError && err.status === 409) {
      void api.get<IssueDocument>(path).then((theirs) => setConflict({ theirs }));
    }
  }, [save.error, api, path]);

  if (doc.isPending || body === null || !base) return <Loading />;
  if (doc.isError) return <ErrorBox error={doc.error} />;
  const dirty = body !== base.body;
  return (
    <Card>
      <div className="stack">
        <div className="row">
          <strong className="grow">{base.title}</strong>
          <span className="faint">editing from revision {base.revisionNumber}</span>
        </div>
        {conflict ? (
          <div className="stack-sm" role="alert">
            <div className="error-box">
              Revision {conflict.theirs.revisionNumber} was saved while you edited. Your text is kept below; here is what changed since revision {base.revisionNumber}:
            </div>
            <DiffView label="Changes made meanwhile" lines={textDiff(base.body, conflict.theirs.body)} />
            <div className="row">
              <Button variant="primary" busy={save.isPending} onClick={() => save.mutate({ text: body, baseRevisionId: conflict.theirs.revisionId })}>Overwrite with my text</Button>
              <Button onClick={() => (setBase(conflict.theirs), setBody(conflict.theirs.body), setConflict(null), save.reset())}>Discard mine, load theirs</Button>
            </div>
          </div>
        ) : save.isError ? (
          <ErrorBox error={save.error} />
        ) : null}
        <Textarea label={`Body of ${docKey}`} className="input textarea mono" rows={14} value={body} onChange={(e) => setBody(e.target.value)} />
        <div className="row">
          <Button variant="primary" busy={save.isPending} disabled={!dirty || !!conflict} onClick={() => save.mutate({ text: body, baseRevisionId: base.revisionId })}>Save revision</Button>
          {dirty ? <Button variant="ghost" onClick={() => setBody(base.body)}>Discard changes</Button> : null}
          <span className="spacer" />
          <Button variant="ghost" onClick={onClose}>{dirty ? 'Close without saving' : 'Done'}</Button>
        </div>
        <details>
          <summary>Revisions ({revisions.data?.length ?? '…'})</summary>
          <div className="list" style={{ marginTop: 8 }}>
            {(revisions.data ?? []).map((r) => (
              <div key={r.id} className="list-item">
                <span>rev {r.revisionNumber}</span>
                <span className="muted grow">{r.authorType} · <RelativeTime iso={r.createdAt} /></span>
                <Button size="sm" variant="ghost" onClick={() => setViewing(viewing?.id === r.id ? null : r)} aria-expanded={viewing?.id === r.id}>{viewing?.id === r.id ? 'Hide' : 'View'}</Button>
                {r.revisionNumber !== base.revisionNumber ? (
                  <Button size="sm" onClick={() => setBody(r.body)} aria-label={`Restore revision ${r.revisionNumber} into the editor`}>Restore</Button>
                ) : null}
              </div>
            ))}
          </div>
          {viewing ? <DiffView label={`Revision ${viewing.revisionNumber} against the current text`} lines={textDiff(viewing.body, base.body)} /> : null}
        </details>
      </div>
    </Card>
  );
}
