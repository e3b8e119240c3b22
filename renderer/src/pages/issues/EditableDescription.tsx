import { useState } from 'react';
import { errorMessage } from '../../api/client.js';
import { Card } from '../../components/Page.js';
import { Button } from '../../components/Button.js';
import { Markdown } from '../../components/Markdown.js';
import { usePatchIssue } from './usePatchIssue.js';
import './inline-edit.css';

/**
 * The description as rendered markdown; a click on it (not on a link) or "Edit" opens the text.
 * Ctrl/Cmd+Enter saves, Escape cancels, a refused save keeps the text and says why.
 */
export function EditableDescription({ issueRef, companyId, description }: { issueRef: string; companyId: string; description: string }) {
  const patch = usePatchIssue(issueRef, companyId);
  const [draft, setDraft] = useState<string | null>(null);
  const cancel = () => (setDraft(null), patch.reset());
  const save = () => {
    if (draft === null) return;
    if (draft === description) return cancel();
    patch.mutate({ description: draft }, { onSuccess: () => setDraft(null) });
  };
  if (draft === null) {
    return (
      <Card>
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <div
            className="grow inline-edit-area"
            title="Click to edit the description"
            onClick={(e) => {
              if (!(e.target instanceof HTMLElement && e.target.closest('a'))) setDraft(description);
            }}
          >
            {description ? <Markdown>{description}</Markdown> : <span className="faint">No description yet. Click to say what done looks like; agents read it before they start.</span>}
          </div>
          <Button size="sm" variant="ghost" onClick={() => setDraft(description)} aria-label="Edit description">Edit</Button>
        </div>
      </Card>
    );
  }
  return (
    <Card>
      <div className="stack-sm">
        <textarea
          className="input textarea"
          aria-label="Description"
          rows={Math.min(20, Math.max(6, draft.split('\n').length + 1))}
          value={draft}
          autoFocus
          disabled={patch.isPending}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              e.stopPropagation();
              cancel();
            }
          }}
        />
        {patch.isError ? <div className="field-error" role="alert">{errorMessage(patch.error)}</div> : null}
        <div className="row">
          <span className="faint" style={{ fontSize: 12 }}>Markdown · Ctrl+Enter to save · Esc to cancel</span>
          <span className="spacer" />
          <Button size="sm" variant="ghost" onClick={cancel}>Cancel</Button>
          <Button size="sm" variant="primary" busy={patch.isPending} onClick={save}>Save</Button>
        </div>
      </div>
    </Card>
  );
}
