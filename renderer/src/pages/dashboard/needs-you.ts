import type { Approval, HeartbeatRun, Interaction, Issue } from '../../api/types.js';

export interface InboxItem {
  kind: 'approval' | 'confirmation' | 'question' | 'suggestion' | 'blocked' | 'failed_run' | 'limit';
  id: string;
  title: string;
  detail: string;
  href: string;
  at: string;
}

const INTERACTION_KIND: Record<Interaction['kind'], InboxItem['kind']> = {
  request_confirmation: 'confirmation',
  ask_user_questions: 'question',
  suggest_tasks: 'suggestion',
};

/** A `limit.exceeded` activity entry: an agent ran into a per-agent or per-company limit. */
export interface LimitHit {
  id: string;
  entityId: string;
  summary: string;
  details: Record<string, unknown> | null;
  createdAt: string;
}

/** Limit hits stay in the inbox this long: the core records one per agent, limit and minute. */
export const LIMIT_HIT_DAYS = 1;

/**
 * The "needs you" inbox: what waits on the founder, newest first. Runs that failed are listed until
 * the agent runs again successfully (a later good run means someone already dealt with it).
 */
export function buildInbox(input: {
  approvals: readonly Approval[];
  interactions: readonly (Interaction & { issueIdentifier?: string })[];
  blocked: readonly Issue[];
  failedRuns: readonly HeartbeatRun[];
  latestRunByAgent: ReadonlyMap<string, HeartbeatRun>;
  agentName: (id: string) => string;
  limitHits?: readonly LimitHit[];
  now?: Date;
}): InboxItem[] {
  const items: InboxItem[] = [];
  for (const a of input.approvals) {
    if (a.status !== 'pending') continue;
    const name = typeof a.payload.name === 'string' ? a.payload.name : null;
    items.push({
      kind: 'approval',
      id: a.id,
      title: a.type === 'hire_agent' ? `Hire ${name ?? 'an agent'}` : `Strategy: ${typeof a.payload.title === 'string' ? a.payload.title : 'CEO strategy'}`,
      detail: a.requestedByAgentId ? `Requested by ${input.agentName(a.requestedByAgentId)}` : 'Requested by the board',
      href: `/approvals/${a.id}`,
      at: a.createdAt,
    });
  }
  for (const i of input.interactions) {
    if (i.status !== 'pending') continue;
    items.push({ kind: INTERACTION_KIND[i.kind], id: i.id, title: i.title, detail: i.issueIdentifier ?? 'Issue', href: `/issues/${i.issueId}`, at: i.createdAt });
  }
  for (const issue of input.blocked) {
    items.push({
      kind: 'blocked',
      id: issue.id,
      title: issue.title,
      detail: `${issue.identifier} is blocked${issue.assigneeAgentId ? ` · ${input.agentName(issue.assigneeAgentId)}` : ''}`,
      href: `/issues/${issue.id}`,
      at: issue.updatedAt,
    });
  }
  for (const run of input.failedRuns) {
    const latest = input.latestRunByAgent.get(run.agentId);
    if (latest && latest.id !== run.id && latest.status === 'succeeded' && latest.queuedAt > run.queuedAt) continue;
    items.push({
      kind: 'failed_run',
      id: run.id,
      title: `${input.agentName(run.agentId)}: run ${run.status.replace('_', ' ')}`,
      detail: run.errorMessage ?? run.errorCode ?? 'The heartbeat did not finish',
      href: `/runs/${run.id}`,
      at: run.finishedAt ?? run.queuedAt,
    });
  }
  // Limit hits of the last day, the newest per agent and limit.
  const since = new Date((input.now ?? new Date()).getTime() - LIMIT_HIT_DAYS * 86_400_000).toISOString();
  const seen = new Set<string>();
  for (const hit of [...(input.limitHits ?? [])].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1))) {
    const limit = typeof hit.details?.limit === 'string' ? hit.details.limit : 'limit';
    const runId = typeof hit.details?.runId === 'string' ? hit.details.runId : null;
    if (hit.createdAt < since || seen.has(`${hit.entityId}:${limit}`)) continue;
    seen.add(`${hit.entityId}:${limit}`);
    items.push({
      kind: 'limit',
      id: hit.id,
      title: `${input.agentName(hit.entityId)} hit a limit`,
      // The core's summary starts with the agent's name, already in the title.
      detail: hit.summary.replace(/^.*? hit a limit: /, ''),
      href: runId ? `/runs/${runId}` : `/agents/${hit.entityId}`,
      at: hit.createdAt,
    });
  }
  return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

export const INBOX_LABEL: Record<InboxItem['kind'], string> = {
  approval: 'Approval',
  confirmation: 'Confirmation',
  question: 'Question',
  suggestion: 'Suggested tasks',
  blocked: 'Blocked',
  failed_run: 'Failed run',
  limit: 'Limit hit',
};
