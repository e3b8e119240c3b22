import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { Loading, ErrorBox } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { Input, Select, Textarea } from '../../components/Field.js';
import { EmptyState } from '../../components/EmptyState.js';
import { Pill } from '../../components/Pill.js';
import { href } from '../../app/router.js';

import { CHANNELS, CHANNEL_LABEL, crmBase, crmKey, splitTags, type ContentPiece } from './crm-api.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Content pieces: what agents may send, registered from files in the company's workspace. */
export function ContentTab({ companyId }: { companyId: string }) {
  const api = useApi();
  const [niche, setNiche] = useState('');
  const [channel, setChannel] = useState('');
  const pieces = useQuery({
    queryKey: crmKey(companyId, 'content', { niche, channel }),
    queryFn: () => allArrayPages<ContentPiece>(api, `${crmBase(companyId)}/content-pieces`, { niche: niche || undefined, channelIntent: channel || undefined }),
  });
  const [creating, setCreating] = useState(false);
  const remove = useAction((p: ContentPiece) => api.delete(`${crmBase(companyId)}/content-pieces/${p.id}`), { success: 'Content piece deleted', errorTitle: 'Could not delete', invalidate: [crmKey(companyId, 'content')] });
  return (
    <div className="stack">
      <div className="filters" role="search" aria-label="Filter content">
        <Input label="Niche" value={niche} onChange={(e) => setNiche(e.target.value)} placeholder="Any" />
        <Select label="Channel" value={channel} onChange={(e) => setChannel(e.target.value)} options={[{ value: '', label: 'Any channel' }, ...CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABEL[c] ?? c }))]} />
        <span className="spacer" />
        <Button variant="primary" onClick={() => setCreating(true)}>New content piece</Button>
      </div>
      {pieces.isPending ? (
        <Loading />
      ) : pieces.isError ? (
        <ErrorBox error={pieces.error} retry={() => void pieces.refetch()} />
      ) : pieces.data.length === 0 ? (
        <EmptyState title="No content yet">Agents register what they write (a post, an e-mail template) as content pieces; you can add one here too.</EmptyState>
      ) : (
        <div className="grid-2">
          {pieces.data.map((p) => (
            <article key={p.id} className="card content-card" aria-label={p.title}>
              <div className="row">
                <strong className="grow">{p.title}</strong>
                {p.channelIntent ? <Pill tone="blue">{CHANNEL_LABEL[p.channelIntent] ?? p.channelIntent}</Pill> : null}
              </div>
              {p.summary ? <p className="content-summary">{p.summary}</p> : null}
              <div className="row-wrap">
                {p.niche ? <Pill tone="violet">{p.niche}</Pill> : null}
                {p.tags.map((t) => <Pill key={t}>{t}</Pill>)}
              </div>
              <div className="muted content-meta">
                <span className="mono ellipsis" title={`sha256 ${p.sourceSha256}`}>{p.sourcePath}</span>
                <span><RelativeTime iso={p.updatedAt} /></span>
                {p.issueId ? <a href={href(`/issues/${p.issueId}`)}>Issue</a> : null}
                <span className="spacer" />
                <Button size="sm" variant="ghost" onClick={() => remove.mutate(p)} aria-label={`Delete ${p.title}`}>Delete</Button>
              </div>
            </article>
          ))}
        </div>
      )}
      {creating ? <ContentDialog companyId={companyId} onClose={() => setCreating(false)} /> : null}
    </div>
  );
}

function ContentDialog({ companyId, onClose }: { companyId: string; onClose: () => void }) {
  const api = useApi();
  const [title, setTitle] = useState('');
  const [summary, setSummary] = useState('');
  const [sourcePath, setSourcePath] = useState('');
  const [text, setText] = useState('');
  const [tags, setTags] = useState('');
  const [niche, setNiche] = useState('');
  const [channel, setChannel] = useState('');
  const create = useAction(
    async () =>
      api.post<ContentPiece>(`${crmBase(companyId)}/content-pieces`, {
        title,
        summary,
        sourcePath: sourcePath.trim(),
        // The hash names the exact text the piece was registered with.
        sourceSha256: await sha256Hex(text),
        tags: splitTags(tags),
        channelIntent: channel || null,
        niche: niche.trim() || null,
      }),
    { success: (p) => `${p.title} added`, errorTitle: 'Could not add the content piece', invalidate: [crmKey(companyId, 'content')], onSuccess: onClose },
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(undefined);
  };
  return (
    <Dialog open wide title="New content piece" onClose={onClose} footer={<><Button onClick={onClose}>Cancel</Button><Button variant="primary" type="submit" form="content-form" busy={create.isPending} disabled={!title.trim() || !sourcePath.trim()}>Add</Button></>}>
      <form id="content-form" className="form" onSubmit={submit}>
        <Input label="Title" value={title} onChange={(e) => setTitle(e.target.value)} required />
        <Textarea label="Summary" value={summary} onChange={(e) => setSummary(e.target.value)} rows={2} />
        <div className="form-row">
          <Input label="Source path" value={sourcePath} onChange={(e) => setSourcePath(e.target.value)} placeholder="content/launch-post.md" hint="Relative path in the company workspace." className="input mono" required />
          <Select label="Channel" value={channel} onChange={(e) => setChannel(e.target.value)} options={[{ value: '', label: 'Any' }, ...CHANNELS.map((c) => ({ value: c, label: CHANNEL_LABEL[c] ?? c }))]} />
        </div>
        <Textarea label="Text" value={text} onChange={(e) => setText(e.target.value)} rows={5} hint="Its SHA-256 is stored with the piece (the text itself stays in the file)." />
        <div className="form-row">
          <Input label="Tags" value={tags} onChange={(e) => setTags(e.target.value)} placeholder="comma separated" />
          <Input label="Niche" value={niche} onChange={(e) => setNiche(e.target.value)} />
        </div>
      </form>
    </Dialog>
  );
}
