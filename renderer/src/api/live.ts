import { matchQuery, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';
import type { LiveEvent } from './event-stream.js';
import { keys } from './keys.js';
import type { EventKind } from '../../../main/core/kernel/events.js';

/**
 * One set of cached queries an event makes stale: `queryKey` as a prefix (or `exact`), narrowed by
 * the optional filters. Plain data (no functions), so a burst of events dedups by value.
 */
export interface Invalidation {
  queryKey: QueryKey;
  exact?: boolean;
  /**
   * Only the record queries `[kind, ref]` under the prefix: the one whose ref or cached `id` is this
   * id (a page opened by identifier, e.g. `['issue', 'ACME-7']`), or every record of the kind with '*'.
   */
  record?: string;
  /** Only sub-queries `[kind, id, part, …]` whose part starts with one of these. */
  parts?: readonly string[];
  /** Only queries whose cached data names this id (the inbox listing this issue). */
  mentions?: string;
}

/**
 * What a live event can change on screen, by name. Each resolves to query keys of keys.ts for the
 * event's company and entity (`data.entityId` of the activity record behind the event).
 */
const TARGETS = {
  activity: (c) => [{ queryKey: keys.activity(c) }],
  inbox: (c) => [{ queryKey: keys.inbox(c) }],
  /** The inbox only while it shows an item about this entity (a comment un-stales a blocked issue). */
  inboxIfListed: (c, id) => (id ? [{ queryKey: keys.inbox(c), mentions: id }] : [{ queryKey: keys.inbox(c) }]),
  search: (c) => [{ queryKey: ['company', c, 'search'] }],
  companies: () => [{ queryKey: keys.companies() }],
  company: (c) => [{ queryKey: keys.company(c), exact: true }],
  costs: (c) => [{ queryKey: keys.costs(c) }],
  issues: (c) => [{ queryKey: keys.issues(c) }],
  issue: (_c, id) => (id ? [{ queryKey: ['issue'], record: id }] : []),
  /** Other issues' pages that show this one (blockers, blocks, ancestors): their data names it. */
  issuesShowing: (_c, id) => (id ? [{ queryKey: ['issue'], record: '*', mentions: id }] : []),
  /** Every open issue page (a link whose other end the event does not name). */
  issueRecords: () => [{ queryKey: ['issue'], record: '*' }],
  issueComments: (_c, id) => (id ? [{ queryKey: keys.issue(id, 'comments') }] : []),
  issueDocuments: (_c, id) => (id ? [{ queryKey: keys.issue(id), parts: ['doc:', 'revisions:'] }] : []),
  issueInteractions: (_c, id) => (id ? [{ queryKey: keys.issue(id, 'interactions') }] : []),
  issueAttachments: (_c, id) => (id ? [{ queryKey: keys.issue(id, 'attachments') }] : []),
  issueWorkspace: (_c, id) => (id ? [{ queryKey: keys.issue(id, 'workspace') }] : []),
  agents: (c) => [{ queryKey: keys.agents(c) }, { queryKey: keys.org(c) }],
  agent: (_c, id) => (id ? [{ queryKey: keys.agent(id), exact: true }] : []),
  /** The agent with its revisions and keys. */
  agentAll: (_c, id) => (id ? [{ queryKey: keys.agent(id) }] : []),
  /** Every open agent page (runs and costs name the run or cost, not the agent). */
  agentRecords: () => [{ queryKey: ['agent'], record: '*' }],
  approvals: (c) => [{ queryKey: keys.approvals(c) }],
  approval: (_c, id) => (id ? [{ queryKey: keys.approval(id) }] : []),
  runs: (c) => [{ queryKey: keys.runs(c) }],
  run: (_c, id) => (id ? [{ queryKey: keys.run(id), exact: true }] : []),
  projects: (c) => [{ queryKey: keys.projects(c) }],
  goals: (c) => [{ queryKey: keys.goals(c) }],
  secrets: (c) => [{ queryKey: keys.secrets(c) }],
  labels: (c) => [{ queryKey: keys.labels(c) }],
  routines: (c) => [{ queryKey: keys.routines(c) }],
  routine: (_c, id) => (id ? [{ queryKey: keys.routine(id) }] : []),
  crm: (c) => [{ queryKey: ['company', c, 'crm'] }],
  crmSettings: () => [{ queryKey: ['system', 'crm-settings'] }],
} satisfies Record<string, (companyId: string, entityId: string | null) => Invalidation[]>;

export type LiveTarget = keyof typeof TARGETS;

const RUN_ENDED: readonly LiveTarget[] = ['runs', 'run', 'agents', 'agentRecords', 'activity'];
const RUN_FAILED: readonly LiveTarget[] = [...RUN_ENDED, 'inbox'];
const AGENT_STATE: readonly LiveTarget[] = ['agents', 'agent', 'activity'];
const ISSUE_MOVED: readonly LiveTarget[] = ['issue', 'issues', 'issuesShowing', 'inboxIfListed', 'search', 'activity'];
const INTERACTION: readonly LiveTarget[] = ['issueInteractions', 'inbox', 'activity'];
const DECIDED: readonly LiveTarget[] = ['approvals', 'approval', 'inbox', 'agents', 'agentRecords', 'activity'];
const ROUTINE: readonly LiveTarget[] = ['routines', 'routine', 'activity'];
const CRM: readonly LiveTarget[] = ['crm', 'activity'];
const CRM_ACTIVITY: readonly LiveTarget[] = ['crm', 'inbox', 'activity'];
const COMPANY: readonly LiveTarget[] = ['companies', 'company', 'costs', 'activity'];

/**
 * Every live event kind the core publishes (the activity `action` strings, and `run.log`) → what it
 * can change on screen. One table, typed against the kernel's event catalogue: a kind the core adds
 * without an entry here is a compile error. Narrow on purpose: each refetch is a request the founder's machine pays
 * for on every event of a busy company; a kind missing here falls back to everything of the company.
 */
export const LIVE_INVALIDATIONS = {
  // The transcript follows run output directly (run-log-bus.ts); no query holds it.
  'run.log': [],
  // Handled by the stream itself (a full refetch, event-stream.ts).
  'stream.reset': [],

  'issue.created': ['issues', 'issueRecords', 'search', 'activity'],
  'issue.updated': ISSUE_MOVED,
  'issue.status_changed': ISSUE_MOVED,
  'issue.deleted': ISSUE_MOVED,
  'issue.unblocked': ISSUE_MOVED,
  'issue.checked_out': ISSUE_MOVED,
  'issue.checkout_adopted': ISSUE_MOVED,
  'issue.released': ISSUE_MOVED,
  'issue.labels_changed': ['issue', 'issues', 'activity'],
  // A comment bumps only the issue's activity time, which no list shows; a stale "blocked" inbox item goes.
  'issue.commented': ['issueComments', 'inboxIfListed', 'activity'],
  'issue.blocker_added': ['issue', 'issueRecords', 'issues', 'activity'],
  'issue.blocker_removed': ['issue', 'issueRecords', 'issues', 'activity'],
  'issue.attachment_added': ['issueAttachments', 'activity'],
  'issue.attachment_deleted': ['issueAttachments', 'activity'],
  // The issue's page lists its documents (documentSummaries) and shows the plan.
  'issue.document_created': ['issue', 'issueDocuments', 'activity'],
  'issue.document_updated': ['issue', 'issueDocuments', 'activity'],
  'issue.document_deleted': ['issue', 'issueDocuments', 'activity'],
  'issue.interaction_created': INTERACTION,
  'issue.interaction_superseded': INTERACTION,
  'issue.interaction_accepted': INTERACTION,
  'issue.interaction_rejected': INTERACTION,
  'issue.interaction_answered': INTERACTION,

  // Workspace events name the issue whose clone it is.
  'workspace.created': ['issueWorkspace', 'activity'],
  'workspace.merged': ['issueWorkspace', 'issue', 'activity'],
  'workspace.merge_refused': ['issueWorkspace', 'activity'],
  'workspace.discarded': ['issueWorkspace', 'activity'],
  'workspace.removed': ['issueWorkspace', 'activity'],
  'workspace.config_restored': ['issueWorkspace', 'activity'],

  'label.created': ['labels', 'activity'],
  'label.updated': ['labels', 'activity'],
  // Deleting a label takes it off every issue.
  'label.deleted': ['labels', 'issues', 'issueRecords', 'activity'],

  'agent.created': ['agents', 'search', 'activity'],
  'agent.drafted': ['agents', 'approvals', 'search', 'activity'],
  'agent.hired': ['agents', 'agent', 'search', 'activity'],
  'agent.updated': ['agents', 'agentAll', 'search', 'activity'],
  'agent.config_rolled_back': ['agents', 'agentAll', 'activity'],
  'agent.paused': AGENT_STATE,
  'agent.resumed': AGENT_STATE,
  'agent.terminated': AGENT_STATE,
  'agent.budget_paused': [...AGENT_STATE, 'costs', 'inbox'],
  'agent.budget_resumed': [...AGENT_STATE, 'costs', 'inbox'],
  'agent_key.created': ['agentAll', 'activity'],
  'agent_key.revoked': ['agentAll', 'activity'],
  'heartbeat.invoked': ['runs', 'agents', 'agent', 'activity'],
  'heartbeat.schedule_updated': ['agents', 'agentAll', 'activity'],

  'run.queued': ['runs', 'run', 'activity'],
  'run.started': RUN_ENDED,
  'run.succeeded': RUN_ENDED,
  'run.cancelled': RUN_ENDED,
  'run.failed': RUN_FAILED,
  'run.timed_out': RUN_FAILED,
  'run.lost': RUN_FAILED,

  'cost.recorded': ['costs', 'company', 'agents', 'agentRecords', 'activity'],
  'budget.warning': ['costs', 'company', 'agents', 'agentRecords', 'inbox', 'activity'],
  'company.budget_exhausted': ['costs', 'company', 'companies', 'agents', 'inbox', 'activity'],
  'limit.exceeded': ['inbox', 'activity'],

  'approval.created': ['approvals', 'approval', 'inbox', 'activity'],
  'approval.resubmitted': ['approvals', 'approval', 'inbox', 'activity'],
  'approval.commented': ['approval', 'activity'],
  // Approving a hire activates its draft agent; rejecting retires it.
  'approval.approved': DECIDED,
  'approval.rejected': DECIDED,
  'approval.revision_requested': DECIDED,

  'company.created': ['companies', 'activity'],
  'company.imported': ['companies', 'activity'],
  'company.updated': COMPANY,
  'company.archived': COMPANY,
  'company.unarchived': COMPANY,
  'company.paused': COMPANY,
  'company.resumed': COMPANY,

  'secret.created': ['secrets', 'activity'],
  'secret.updated': ['secrets', 'activity'],
  'secret.deleted': ['secrets', 'activity'],
  'project.created': ['projects', 'search', 'activity'],
  // Project and goal names appear in cost breakdowns and on issue pages (IssueDetail embeds them).
  'project.updated': ['projects', 'costs', 'issueRecords', 'search', 'activity'],
  'goal.created': ['goals', 'activity'],
  'goal.updated': ['goals', 'issueRecords', 'activity'],
  'asset.uploaded': ['activity'],
  'inbox.dismissed': ['inbox', 'activity'],

  'routine.created': ROUTINE,
  'routine.updated': ROUTINE,
  'routine.deleted': ROUTINE,
  'routine.paused': ROUTINE,
  'routine.resumed': ROUTINE,
  'routine.webhook_rotated': ROUTINE,
  'routine.fired': ROUTINE,
  'routine.firing_cancelled': ROUTINE,
  'routine.firing_skipped': ROUTINE,
  'routine.slots_missed': ROUTINE,

  'crm.allowlist.added': CRM,
  'crm.allowlist.removed': CRM,
  'crm.brand_voice.checked': CRM,
  'crm.brand_voice.guide_updated': CRM,
  'crm.brand_voice.settings_updated': CRM,
  'crm.content_piece.created': CRM,
  'crm.content_piece.updated': CRM,
  'crm.content_piece.deleted': CRM,
  'crm.outbox.created': CRM,
  'crm.outbox.updated': CRM,
  'crm.outbox.deleted': CRM,
  'crm.rule.created': CRM,
  'crm.rule.updated': CRM,
  'crm.rule.deleted': CRM,
  'crm.sequence.created': CRM,
  'crm.sequence.updated': CRM,
  'crm.sequence.deleted': CRM,
  'crm.sequence.enrolled': CRM,
  'crm.enrollment.stopped': CRM,
  'crm.enrollment.completed': CRM,
  'crm.enrollment.failed': CRM,
  'crm.settings.updated': [...CRM, 'crmSettings'],
  // CRM drafts waiting for approval are inbox items.
  'crm.activity.approved': CRM_ACTIVITY,
  'crm.activity.draft_pending_approval': CRM_ACTIVITY,
  'crm.activity.sent': CRM_ACTIVITY,
  'crm.activity.sent_dryrun': CRM_ACTIVITY,
  'crm.activity.blocked_by_allowlist': CRM_ACTIVITY,
  'crm.activity.blocked_by_quota': CRM_ACTIVITY,
  'crm.activity.failed': CRM_ACTIVITY,
  'crm.activity.sending': CRM_ACTIVITY,
  'crm.activity.rejected': CRM_ACTIVITY,
} as const satisfies Record<EventKind, readonly LiveTarget[]>;

export type LiveEventKind = keyof typeof LIVE_INVALIDATIONS;

const isKnown = (type: string): type is LiveEventKind => Object.hasOwn(LIVE_INVALIDATIONS, type);

/** Which cached queries an event makes stale (see LIVE_INVALIDATIONS). */
export function invalidationsFor(companyId: string, event: Pick<LiveEvent, 'type' | 'data'>): Invalidation[] {
  // A kind this board does not know yet (a newer core, a plugin): everything of the company may have moved.
  if (!isKnown(event.type)) return [{ queryKey: keys.company(companyId) }, { queryKey: ['issue'] }, { queryKey: ['agent'] }, { queryKey: ['approval'] }, { queryKey: ['run'] }, { queryKey: ['routine'] }];
  const entityId = typeof event.data.entityId === 'string' ? event.data.entityId : null;
  const targets: readonly LiveTarget[] = LIVE_INVALIDATIONS[event.type];
  return targets.flatMap((t): Invalidation[] => TARGETS[t](companyId, entityId));
}

/** Whether a cached query is one an invalidation means, beyond its key prefix. */
export function matchesInvalidation(i: Invalidation, query: Pick<Query, 'queryKey' | 'state'>): boolean {
  const key = query.queryKey;
  if (i.record !== undefined) {
    if (key.length !== i.queryKey.length + 1) return false;
    if (i.record !== '*' && key[i.queryKey.length] !== i.record && dataId(query.state.data) !== i.record) return false;
  }
  if (i.parts) {
    const part = key[i.queryKey.length];
    if (typeof part !== 'string' || !i.parts.some((p) => part.startsWith(p))) return false;
  }
  if (i.mentions !== undefined && !mentions(query.state.data, i.mentions)) return false;
  return true;
}

const dataId = (data: unknown): unknown => (data && typeof data === 'object' && 'id' in data ? (data as { id: unknown }).id : undefined);

function mentions(data: unknown, id: string): boolean {
  if (data === undefined) return false;
  try {
    return JSON.stringify(data).includes(JSON.stringify(id));
  } catch {
    return true;
  }
}

/** The query is one of those `i` means: its key (prefix or exact) and the filters. */
const claims = (i: Invalidation, q: Query) => matchQuery({ queryKey: i.queryKey, exact: i.exact ?? false }, q) && matchesInvalidation(i, q);

const keyOf = (i: Invalidation) => JSON.stringify([i.queryKey, i.exact ?? false, i.record ?? null, i.parts ?? null, i.mentions ?? null]);

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
    // One call per key, and each query refetched once per batch, by the first call that claims it:
    // two calls naming the same query would cancel and restart its fetch, a second request for nothing.
    const groups = new Map<string, Invalidation[]>();
    for (const i of batch) {
      const k = JSON.stringify([i.queryKey, i.exact ?? false]);
      groups.set(k, [...(groups.get(k) ?? []), i]);
    }
    const ordered = [...groups.values()];
    ordered.forEach((group, k) => {
      const earlier = ordered.slice(0, k).flat();
      void this.queryClient.invalidateQueries({
        queryKey: group[0]!.queryKey,
        exact: group[0]!.exact ?? false,
        predicate: (q) => group.some((i) => claims(i, q)) && !earlier.some((e) => claims(e, q)),
      });
    });
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
