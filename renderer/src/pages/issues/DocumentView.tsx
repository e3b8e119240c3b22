import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { keys } from '../../api/keys.js';
import type { DocumentRevision, IssueDocument } from '../../api/types.js';
import { Card, Loading, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Markdown } from '../../components/Markdown.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

const author = (r: DocumentRevision) => (r.authorType === 'board' ? 'you' : r.authorType === 'agent' ? 'an agent' : 'Headcount');

/**
 * An issue document as the reader wants it: rendered markdown (sanitized), with its revisions;
 * picking one shows that revision rendered in place of the current text.
 */
export function DocumentView({ issueId, docKey, onEdit, reveal }: { issueId: string; docKey: string; onEdit: () => void; reveal?: boolean }) {
  const api = useApi();
  const path = `/api/issues/${issueId}/documents/${docKey}`;
  const doc = useQuery({ queryKey: keys.issue(issueId, `doc:${docKey}`), queryFn: () => api.get<IssueDocument>(path) });
  const revisions = useQuery({ queryKey: keys.issue(issueId, `revisions:${docKey}`), queryFn: () => allArrayPages<DocumentRevision>(api, `${path}/revisions`) });
  const [picked, setPicked] = useState<DocumentRevision | null>(null);
  const article = useRef<HTMLElement>(null);
  const loaded = doc.isSuccess;
  // Opened from a link: bring it into view once its text is there.
  useEffect(() => {
    if (reveal && loaded) article.current?.scrollIntoView({ block: 'start' });
  }, [reveal, loaded]);
  if (doc.isPending) return <Loading />;
  if (doc.isError) return <ErrorBox error={doc.error} retry={() => void doc.refetch()} />;
  const d = doc.data;
  const shown = picked && picked.revisionNumber !== d.revisionNumber ? picked : null;
  const body = shown ? shown.body : d.body;
  return (
    <Card>
      <article ref={article} className="stack" aria-label={`Document ${d.title}`}>
        <div className="row">
          <strong className="grow">{d.title}</strong>
          <span className="faint">
            {shown ? `revision ${shown.revisionNumber} of ${d.revisionNumber}` : `revision ${d.revisionNumber}`} · <RelativeTime iso={shown ? shown.createdAt : d.updatedAt} />
          </span>
          {shown ? <Button size="sm" variant="ghost" onClick={() => setPicked(null)}>Back to current</Button> : null}
          <Button size="sm" onClick={onEdit}>Edit document</Button>
        </div>
        {body.trim() ? <Markdown>{body}</Markdown> : <div className="faint">This document is empty. Edit it to write the plan, or ask the assignee to.</div>}
        <details>
          <summary>Revisions ({revisions.data?.length ?? '…'})</summary>
          <div className="list" style={{ marginTop: 8 }} aria-label="Revisions">
            {(revisions.data ?? []).map((r) => (
              <div key={r.id} className="list-item">
                <span>rev {r.revisionNumber}</span>
                <span className="muted grow">by {author(r)} · <RelativeTime iso={r.createdAt} /></span>
                <Button size="sm" variant="ghost" aria-pressed={shown?.id === r.id} onClick={() => setPicked(r)} aria-label={`Show revision ${r.revisionNumber}`}>{shown?.id === r.id ? 'Showing' : 'Show'}</Button>
              </div>
            ))}
          </div>
        </details>
      </article>
    </Card>
  );
}
