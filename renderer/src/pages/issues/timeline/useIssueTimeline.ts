import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/api-context.js';
import { buildUrl, toApiError, type ApiClient } from '../../../api/client.js';
import { keys } from '../../../api/keys.js';
import type { Approval, Comment, HeartbeatRun, Page } from '../../../api/types.js';
import { mergeTimeline, type ActivityRecord, type TimelineEntry } from './merge.js';
import { allArrayPages } from '../../../api/array-pages.js';

/**
 * Pages read per source. An issue with more than this many runs or activity records (1,000 each)
 * shows its newest ones and says older ones are left out; comments are read from the oldest.
 */
const MAX_PAGES = 5;

interface Bounded<T> {
  items: T[];
  more: boolean;
}

async function cursorPaged<T>(api: ApiClient, path: string, query: Record<string, string>): Promise<Bounded<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page: Page<T> = await api.get<Page<T>>(path, { ...query, limit: 200, cursor: cursor ?? undefined });
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return { items, more: false };
  }
  return { items, more: true };
}

/** Comments page by the X-Next-Cursor header (the body is the spec's plain array). */
async function allComments(api: ApiClient, issueId: string): Promise<Bounded<Comment>> {
  const items: Comment[] = [];
  let after: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const res = await api.raw(buildUrl('', `/api/issues/${issueId}/comments`, { limit: 500, after }));
    if (!res.ok) throw await toApiError(res);
    items.push(...((await res.json()) as Comment[]));
    after = res.headers.get('x-next-cursor') ?? undefined;
    if (!after) return { items, more: false };
  }
  return { items, more: true };
}

export interface IssueTimeline {
  entries: TimelineEntry[];
  isPending: boolean;
  error: unknown;
  /** Some source had more than the timeline reads. */
  truncated: boolean;
  refetch: () => void;
}

/**
 * Everything that happened to one issue, from the lists the API already has, each narrowed to the
 * issue. Keys sit under the prefixes live events invalidate (api/live.ts), so the timeline is live.
 */
export function useIssueTimeline(companyId: string, issueId: string): IssueTimeline {
  const api = useApi();
  const comments = useQuery({ queryKey: keys.issue(issueId, 'comments'), queryFn: () => allComments(api, issueId) });
  const runs = useQuery({
    queryKey: keys.runs(companyId, { issueId, all: true }),
    queryFn: () => cursorPaged<HeartbeatRun>(api, `/api/companies/${companyId}/heartbeat-runs`, { issueId }),
  });
  const approvals = useQuery({
    queryKey: keys.approvals(companyId, { issueId }),
    queryFn: () => allArrayPages<Approval>(api, `/api/companies/${companyId}/approvals`, { issueId }),
  });
  const activity = useQuery({
    queryKey: [...keys.activity(companyId), { entityType: 'issue', entityId: issueId }],
    queryFn: () => cursorPaged<ActivityRecord>(api, `/api/companies/${companyId}/activity`, { entityType: 'issue', entityId: issueId }),
  });

  const entries = useMemo(
    () =>
      mergeTimeline({
        comments: comments.data?.items ?? [],
        runs: runs.data?.items ?? [],
        approvals: approvals.data ?? [],
        activity: activity.data?.items ?? [],
      }),
    [comments.data, runs.data, approvals.data, activity.data],
  );
  const queries = [comments, runs, approvals, activity];
  return {
    entries,
    isPending: queries.some((q) => q.isPending),
    error: queries.find((q) => q.isError)?.error ?? null,
    truncated: !!(comments.data?.more || runs.data?.more || activity.data?.more),
    refetch: () => queries.forEach((q) => void q.refetch()),
  };
}
