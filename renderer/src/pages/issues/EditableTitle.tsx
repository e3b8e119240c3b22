import { useState } from 'react';
import { errorMessage } from '../../api/client.js';
import { usePatchIssue } from './usePatchIssue.js';
import { useShortcut } from '../../shortcuts/registry.js';
import './inline-edit.css';

/**
 * The issue's title, edited where it stands: click (or Enter on it) to edit, Enter saves, Escape
 * cancels; a refused save keeps the text and says why under it.
 */
export function EditableTitle({ issueRef, companyId, title }: { issueRef: string; companyId: string; title: string }) {
  const patch = usePatchIssue(issueRef, companyId);
  const [draft, setDraft] = useState<string | null>(null);
  useShortcut('e', 'Edit the issue title', () => setDraft(title), { group: 'Issue', enabled: draft === null });
  const cancel = () => (setDraft(null), patch.reset());
  const save = () => {
    if (draft === null) return;
    const next = draft.trim();
    if (next === title) return cancel();
    patch.mutate({ title: next }, { onSuccess: () => setDraft(null) });
  };
  if (draft === null) {
    return (
      <span className="inline-edit" role="button" tabIndex={0} title="Click to edit the title" onClick={() => setDraft(title)} onKeyDown={(e) => e.key === 'Enter' && setDraft(title)}>
        {title}
      </span>
    );
  }
  return (
    <span className="inline-edit-open">
      <input
        className="input inline-edit-title"
        aria-label="Title"
        value={draft}
        autoFocus
        disabled={patch.isPending}
        aria-invalid={patch.isError || !draft.trim() ? true : undefined}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            if (draft.trim()) save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            cancel();
          }
        }}
      />
      <span className="inline-edit-hint">
        {patch.isError ? <span className="field-error" role="alert">{errorMessage(patch.error)}</span> : !draft.trim() ? <span className="field-error" role="alert">A title is required</span> : 'Enter to save · Esc to cancel'}
      </span>
    </span>
  );
}
