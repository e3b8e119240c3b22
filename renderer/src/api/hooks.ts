import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import { toastError, toastSuccess } from '../stores/ui.js';
import { keys } from './keys.js';
import { allArrayPages } from './array-pages.js';
import type { Agent, Approval, Company, CostSummary, HeartbeatRun, Inbox, IssuePage, Label, Page, Project } from './types.js';

/** Shared queries. Page-specific ones live beside their page, keyed per keys.ts. */
export function useCompanies() {
  const api = useApi();
  return useQuery({
    queryKey: keys.companies(),
    queryFn: () => allArrayPages<Company>(api, '/api/companies'),
    // Events are per company: with none yet there is no stream to say one was created elsewhere
    // (`headcount demo`, another tab), so the first-run screen looks every few seconds.
    refetchInterval: (q) => (q.state.data && q.state.data.length > 0 ? false : 4000),
  });
}

export function useCompany(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.company(cid), queryFn: () => api.get<Company>(`/api/companies/${cid}`) });
}

export function useAgents(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.agents(cid), queryFn: () => api.get<Agent[]>(`/api/companies/${cid}/agents`) });
}

export function useProjects(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.projects(cid), queryFn: () => allArrayPages<Project>(api, `/api/companies/${cid}/projects`) });
}

export function useIssues(cid: string, filters: { status?: string; assigneeAgentId?: string; projectId?: string; labelId?: string; limit?: number } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: keys.issues(cid, filters),
    queryFn: () => api.get<IssuePage>(`/api/companies/${cid}/issues`, { limit: 200, ...filters }),
  });
}

export function useApprovals(cid: string, status?: string) {
  const api = useApi();
  return useQuery({
    queryKey: keys.approvals(cid, { status }),
    // Every page: the approvals list and the sidebar's pending count must not stop at the first 200.
    queryFn: () => allArrayPages<Approval>(api, `/api/companies/${cid}/approvals`, { status }),
  });
}

export function useRuns(cid: string, filters: { agentId?: string; status?: string; limit?: number } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: keys.runs(cid, filters),
    queryFn: () => api.get<Page<HeartbeatRun>>(`/api/companies/${cid}/heartbeat-runs`, { limit: 50, ...filters }),
  });
}

export function useCostSummary(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.costs(cid, 'summary'), queryFn: () => api.get<CostSummary>(`/api/companies/${cid}/costs/summary`) });
}

/**
 * A write with the board's conventions: the API's error message in a toast, an optional success
 * toast, and the given queries refetched (live events usually beat us to it; this covers a closed stream).
 */
export function useAction<TVars, TResult>(
  fn: (vars: TVars) => Promise<TResult>,
  options: {
    success?: string | ((r: TResult) => string);
    invalidate?: QueryKey[];
    errorTitle?: string;
    onSuccess?: (r: TResult, v: TVars) => void;
    /** Errors the page explains in place (e.g. a 409 conflict panel): no toast for those. */
    handled?: (err: unknown) => boolean;
  } = {},
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onError: (err) => {
      if (!options.handled?.(err)) toastError(err, options.errorTitle);
    },
    onSuccess: (result, vars) => {
      if (options.success) toastSuccess(typeof options.success === 'function' ? options.success(result) : options.success);
      for (const queryKey of options.invalidate ?? []) void qc.invalidateQueries({ queryKey });
      options.onSuccess?.(result, vars);
    },
  });
}

export function useLabels(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.labels(cid), queryFn: () => allArrayPages<Label>(api, `/api/companies/${cid}/labels`) });
}

/** What waits on the founder (GET …/inbox): the sidebar count, the window title, the Inbox page, the dashboard. */
export function useInbox(cid: string) {
  const api = useApi();
  return useQuery({ queryKey: keys.inbox(cid), queryFn: () => api.get<Inbox>(`/api/companies/${cid}/inbox`) });
}
