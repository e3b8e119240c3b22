import type { Issue, IssueStatus } from '../../api/types.js';

/** Issues in columns by status, in the given column order; each column keeps the API's priority order. */
export function groupByStatus(issues: readonly Issue[], statuses: readonly IssueStatus[]): [IssueStatus, Issue[]][] {
  const columns = new Map<IssueStatus, Issue[]>(statuses.map((s) => [s, []]));
  for (const issue of issues) columns.get(issue.status)?.push(issue);
  return [...columns.entries()];
}
