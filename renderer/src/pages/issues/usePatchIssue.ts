import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../app/api-context.js';
import { keys } from '../../api/keys.js';
import type { Issue, PatchIssueInput } from '../../api/types.js';

/**
 * A PATCH of the issue whose error the caller shows in place (no toast): each in-place editor
 * owns its own mutation, so a failed title save is reported at the title.
 */
export function usePatchIssue(issueRef: string, companyId: string) {
  const api = useApi();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PatchIssueInput) => api.patch<Issue>(`/api/issues/${issueRef}`, body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: keys.issue(issueRef) });
      void qc.invalidateQueries({ queryKey: keys.issues(companyId) });
    },
  });
}
