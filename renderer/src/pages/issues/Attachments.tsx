import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import { toApiError } from '../../api/client.js';
import type { Attachment, IssueDetail } from '../../api/types.js';
import { Section } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { toastError } from '../../stores/ui.js';
import { RelativeTime } from '../../components/RelativeTime.js';
import { allArrayPages } from '../../api/array-pages.js';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Attachments: drop files anywhere on the zone (or pick them); content is fetched with the token, never linked bare. */
export function Attachments({ issue }: { issue: IssueDetail }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const list = useQuery({ queryKey: keys.issue(issue.id, 'attachments'), queryFn: () => allArrayPages<Attachment>(api, `/api/issues/${issue.id}/attachments`) });
  const upload = useAction(
    async (files: File[]) => {
      for (const file of files) {
        const form = new FormData();
        form.append('file', file, file.name);
        await api.upload<Attachment>(`/api/companies/${issue.companyId}/issues/${issue.id}/attachments`, form);
      }
      return files.length;
    },
    { errorTitle: 'Upload failed', success: (n) => `${n} file${n === 1 ? '' : 's'} attached`, invalidate: [keys.issue(issue.id, 'attachments')] },
  );
  const remove = useAction((a: Attachment) => api.delete(`/api/attachments/${a.id}`), { success: 'Attachment deleted', invalidate: [keys.issue(issue.id, 'attachments')] });

  const open = async (a: Attachment) => {
    try {
      const res = await api.raw(`/api/attachments/${a.id}/content`);
      if (!res.ok) throw await toApiError(res);
      const url = URL.createObjectURL(await res.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = a.fileName;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      toastError(err, `Could not open ${a.fileName}`);
    }
  };

  const items = list.data ?? [];
  return (
    <Section title={`Attachments${items.length ? ` (${items.length})` : ''}`}>
      <div className="stack-sm">
        {items.length ? (
          <div className="list" aria-label="Attachments">
            {items.map((a) => (
              <div key={a.id} className="list-item">
                <button type="button" className="btn btn-ghost btn-sm grow" style={{ justifyContent: 'flex-start' }} onClick={() => void open(a)} aria-label={`Download ${a.fileName}`}>
                  {a.fileName}
                </button>
                <span className="faint">{a.contentType} · {formatBytes(a.byteSize)} · <RelativeTime iso={a.createdAt} /></span>
                <button type="button" className="icon-btn" aria-label={`Delete ${a.fileName}`} onClick={() => remove.mutate(a)}>×</button>
              </div>
            ))}
          </div>
        ) : null}
        <div
          className="dropzone"
          data-over={over}
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes('Files')) {
              e.preventDefault();
              setOver(true);
            }
          }}
          onDragLeave={() => setOver(false)}
          onDrop={(e) => {
            e.preventDefault();
            setOver(false);
            const files = [...e.dataTransfer.files];
            if (files.length) upload.mutate(files);
          }}
        >
          {upload.isPending ? 'Uploading…' : 'Drop files here to attach them, or '}
          {!upload.isPending ? (
            <Button size="sm" variant="ghost" onClick={() => input.current?.click()}>choose files</Button>
          ) : null}
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label="Attach files"
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              if (files.length) upload.mutate(files);
              e.target.value = '';
            }}
          />
        </div>
      </div>
    </Section>
  );
}
