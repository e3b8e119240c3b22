import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from './event-stream.js';
import { keys } from './keys.js';

export interface Invalidation {
  queryKey: QueryKey;
  exact?: boolean;
}

const area = (type: string) => type.slice(0, type.indexOf('.') < 0 ? type.length : type.indexOf('.'));

/**
 * Which cached queries an event makes stale. Activity events carry {entityType, entityId}; the
 * mapping is by the event type's area (`issue.created` → issue). Coarse on purpose: refetching an
 * unobserved query is free (react-query only refetches what is on screen), a missed one is a bug.
 */
export function invalidationsFor(companyId: string, event: Pick<LiveEvent, 'type' | 'data'>): Invalidation[] {
  if (event.type === 'run.log') return [];
  const entityId = typeof event.data.entityId === 'string' ? event.data.entityId : null;
  // The inbox is computed from many areas (approvals, interactions, runs, budgets, issues): any event may change it.
  const out: Invalidation[] = [{ queryKey: keys.activity(companyId) }, { queryKey: keys.inbox(companyId) }];
  switch (area(event.type)) {
    case 'agent':
    case 'agent_key':
      out.push({ queryKey: keys.agents(companyId) }, { queryKey: keys.org(companyId) }, { queryKey: ['agent'] }, { queryKey: keys.costs(companyId) });
      break;
    case 'issue':
      out.push({ queryKey: keys.issues(companyId) }, { queryKey: ['issue'] });
      break;
    case 'approval':
      // Approving a hire activates its draft agent.
      out.push({ queryKey: keys.approvals(companyId) }, { queryKey: ['approval'] }, { queryKey: keys.agents(companyId) }, { queryKey: keys.org(companyId) }, { queryKey: ['agent'] });
      break;
    case 'run':
    case 'heartbeat':
      out.push({ queryKey: keys.runs(companyId) }, { queryKey: keys.agents(companyId) }, { queryKey: keys.org(companyId) });
      if (entityId) out.push({ queryKey: keys.run(entityId) }, { queryKey: ['agent', entityId] });
      out.push({ queryKey: ['agent'] });
      break;
    case 'cost':
    case 'budget':
      out.push({ queryKey: keys.costs(companyId) }, { queryKey: keys.agents(companyId) }, { queryKey: keys.company(companyId), exact: true }, { queryKey: ['agent'] });
      break;
    case 'company':
      out.push({ queryKey: keys.companies() }, { queryKey: keys.company(companyId), exact: true }, { queryKey: keys.costs(companyId) }, { queryKey: keys.agents(companyId) });
      break;
    case 'secret':
      out.push({ queryKey: keys.secrets(companyId) });
      break;
    case 'project':
      out.push({ queryKey: keys.projects(companyId) }, { queryKey: keys.costs(companyId) });
      break;
    case 'goal':
      out.push({ queryKey: keys.goals(companyId) });
      break;
    case 'routine':
      out.push({ queryKey: keys.routines(companyId) }, { queryKey: ['routine'] }, { queryKey: keys.issues(companyId) });
      break;
    case 'label':
      out.push({ queryKey: keys.labels(companyId) }, { queryKey: keys.issues(companyId) }, { queryKey: ['issue'] });
      break;
    default:
      // Unknown areas (plugins, CRM): everything under the company may have moved.
      out.push({ queryKey: ['company', companyId] });
  }
  return out;
}

const keyOf = (i: Invalidation) => JSON.stringify([i.queryKey, i.exact ?? false]);

/**
 * Batches invalidations: a heartbeat emits a burst of events; one refetch per query per window
 * is enough and keeps a busy company from hammering the API.
 */
export class Invalidator {
  private pending = new Map<string, Invalidation>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly queryClient: Pick<QueryClient, 'invalidateQueries'>,
    private readonly windowMs = 120,
  ) {}

  add(invalidations: readonly Invalidation[]): void {
    for (const i of invalidations) this.pending.set(keyOf(i), i);
    if (this.timer === null && this.pending.size > 0) this.timer = setTimeout(() => this.flush(), this.windowMs);
  }

  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending.clear();
    for (const i of batch) void this.queryClient.invalidateQueries({ queryKey: i.queryKey, exact: i.exact ?? false });
  }

  /** After a `stream.reset`: everything may be stale. */
  all(): void {
    this.pending.clear();
    void this.queryClient.invalidateQueries();
  }

  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
