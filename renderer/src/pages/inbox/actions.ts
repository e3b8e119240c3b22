import type { InboxItem } from '../../api/types.js';

/** The endpoint behind each inline action of an inbox item (the inbox only links; the areas decide). */
export function actionRequest(companyId: string, item: InboxItem, action: 'approve' | 'reject' | 'accept' | 'retry'): { path: string; body: unknown } | null {
  const r = item.refs;
  switch (item.kind) {
    case 'approval':
      return action === 'approve' || action === 'reject' ? { path: `/api/approvals/${r.approvalId}/${action}`, body: {} } : null;
    case 'crm_draft':
      return action === 'approve' || action === 'reject' ? { path: `/api/companies/${companyId}/crm/activities/${r.activityId}/${action}`, body: {} } : null;
    case 'interaction':
      return action === 'accept' || action === 'reject' ? { path: `/api/issues/${r.issueId}/interactions/${r.interactionId}/${action}`, body: {} } : null;
    case 'run_failed':
      return action === 'retry' ? { path: `/api/agents/${r.agentId}/heartbeat/invoke`, body: r.issueId ? { issueId: r.issueId } : {} } : null;
    default:
      return null;
  }
}

export const KIND_LABEL: Record<InboxItem['kind'], string> = {
  approval: 'Approval',
  interaction: 'Agent asks',
  run_failed: 'Failed run',
  budget_warning: 'Budget',
  budget_stop: 'Budget stop',
  issue_blocked: 'Blocked',
  crm_draft: 'CRM draft',
  limit_hit: 'Limit hit',
};

export const KIND_TONE: Record<InboxItem['kind'], 'amber' | 'red' | 'violet' | 'blue'> = {
  approval: 'amber',
  interaction: 'violet',
  run_failed: 'red',
  budget_warning: 'amber',
  budget_stop: 'red',
  issue_blocked: 'red',
  crm_draft: 'blue',
  limit_hit: 'amber',
};

/**
 * Items not seen before, for one OS notification each. `known` is null on the first load: what is
 * already waiting then is not "new" (no burst of notifications when the board opens).
 */
export function newItems(known: ReadonlySet<string> | null, items: readonly InboxItem[]): InboxItem[] {
  if (!known) return [];
  return items.filter((i) => !known.has(i.id));
}
