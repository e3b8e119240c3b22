import { useState } from 'react';
import { useApi } from '../../app/api-context.js';
import { useAction } from '../../api/hooks.js';
import { keys } from '../../api/keys.js';
import type { Issue } from '../../api/types.js';
import { Button } from '../../components/Button.js';
import { Dialog } from '../../components/Dialog.js';
import { navigate } from '../../app/router.js';

/**
 * Cancel (status `cancelled`, reversible from the status menu) and Delete (soft, board only:
 * the issue leaves every list and page, its history stays in the database), the latter confirmed.
 */
export function IssueActions({ issue, issueRef, companyId }: { issue: Issue; issueRef: string; companyId: string }) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  const cancel = useAction(() => api.patch<Issue>(`/api/issues/${issueRef}`, { status: 'cancelled' }), {
    errorTitle: 'Could not cancel the issue',
    success: `${issue.identifier} cancelled`,
    invalidate: [keys.issue(issueRef), keys.issues(companyId)],
  });
  const remove = useAction(() => api.delete<unknown>(`/api/issues/${issueRef}`), {
    errorTitle: 'Could not delete the issue',
    success: `${issue.identifier} deleted`,
    invalidate: [keys.issues(companyId)],
    onSuccess: () => navigate('/issues'),
  });
  const closed = issue.status === 'cancelled' || issue.status === 'done';
  return (
    <>
      {closed ? null : (
        <Button busy={cancel.isPending} onClick={() => cancel.mutate(undefined)}>
          Cancel issue
        </Button>
      )}
      <Button variant="danger" onClick={() => setConfirming(true)}>
        Delete
      </Button>
      <Dialog
        open={confirming}
        title={`Delete ${issue.identifier}?`}
        onClose={() => setConfirming(false)}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirming(false)}>Keep it</Button>
            <Button variant="danger" busy={remove.isPending} onClick={() => remove.mutate(undefined)}>Delete issue</Button>
          </>
        }
      >
        <p style={{ margin: 0 }}>
          “{issue.title}” disappears from lists, search and agents' work; a running agent loses it. Its comments, runs and costs stay on record. To only stop work on it, cancel it instead.
        </p>
      </Dialog>
    </>
  );
}
