/**
 * Which company events need the founder, as native notifications with a deep link into the
 * renderer (hash routes, listed in /tmp/hc/electron-deeplinks.md for the board UI), and no repeats.
 *
 * Events on the bus carry `{entityType, entityId, summary}`; the facts that decide (the new status
 * of an issue, the kind of an interaction, the month of a budget alert) are in the activity
 * record's details, which the caller looks up by `activityId`.
 */
import type { EventKind } from '../core/kernel/events.js';

export type NoticeKind = 'approval' | 'run_failed' | 'budget_warning' | 'budget_stop' | 'issue_blocked' | 'confirmation' | 'question' | 'crm_draft' | 'limit_hit';

/** An inbox item as the shell reads it (main/core/inbox), with its company. */
export interface InboxEntry {
  companyId: string;
  id: string;
  kind: string;
  title: string;
  summary: string;
  link: { path: string };
}

/**
 * Inbox kinds no single event announces (a CRM draft waiting, an agent at a limit, an issue blocked
 * for a day): they are noticed when they first appear in the inbox. The other kinds already have
 * their notice from the event that created them.
 */
const INBOX_ONLY: Readonly<Record<string, { kind: NoticeKind; title: string }>> = {
  crm_draft: { kind: 'crm_draft', title: 'CRM draft waiting' },
  limit_hit: { kind: 'limit_hit', title: 'An agent hit a limit' },
  issue_blocked: { kind: 'issue_blocked', title: 'Issue blocked for a day' },
};

/** The notices of inbox items of the kinds above, keyed by item id. */
export function inboxNotices(items: readonly InboxEntry[]): Notice[] {
  return items.flatMap((item) => {
    const only = INBOX_ONLY[item.kind];
    if (!only) return [];
    return [{ kind: only.kind, key: `inbox:${item.id}`, title: only.title, body: item.title, route: `#${item.link.path}${q(item.companyId)}` }];
  });
}

export interface BusEvent {
  companyId: string;
  /** A kind of the catalogue: a misspelt kind below is a compile error. */
  type: EventKind;
  data: Record<string, unknown>;
}

export interface Notice {
  kind: NoticeKind;
  /** Dedupe key: one notice per entity and kind (per month for budget alerts). */
  key: string;
  title: string;
  body: string;
  /** Hash route of the renderer, e.g. `#/approvals/<id>?company=<id>`. */
  route: string;
}

const FAILED_RUN = new Set(['run.failed', 'run.timed_out', 'run.lost']);

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const q = (companyId: string, extra = ''): string => `?company=${encodeURIComponent(companyId)}${extra}`;
const seg = (id: string): string => encodeURIComponent(id);

/**
 * The notice an event calls for, or null. `details` returns the activity record's details (or
 * null) and is only called for the event types that need them.
 */
export function noticeFor(event: BusEvent, details: (activityId: string) => Record<string, unknown> | null): Notice | null {
  const entityId = str(event.data.entityId);
  if (!entityId) return null;
  const summary = str(event.data.summary) ?? '';
  const c = event.companyId;
  const more = (): Record<string, unknown> => {
    const id = str(event.data.activityId);
    return (id && details(id)) || {};
  };

  if (event.type === 'approval.created' || event.type === 'approval.resubmitted') {
    return { kind: 'approval', key: `approval:${entityId}`, title: 'Approval waiting', body: summary, route: `#/approvals/${seg(entityId)}${q(c)}` };
  }
  if (FAILED_RUN.has(event.type)) {
    const title = event.type === 'run.timed_out' ? 'Run timed out' : event.type === 'run.lost' ? 'Run lost' : 'Run failed';
    return { kind: 'run_failed', key: `run_failed:${entityId}`, title, body: summary, route: `#/runs/${seg(entityId)}${q(c)}` };
  }
  if (event.type === 'budget.warning' || event.type === 'agent.budget_paused' || event.type === 'company.budget_exhausted') {
    const warning = event.type === 'budget.warning';
    const month = str(more().month) ?? '';
    const kind: NoticeKind = warning ? 'budget_warning' : 'budget_stop';
    return {
      kind,
      key: `${kind}:${entityId}:${month}`,
      title: warning ? 'Budget alert' : 'Budget used up',
      body: summary,
      route: `#/costs${q(c)}`,
    };
  }
  if (event.type === 'issue.status_changed') {
    if (more().to !== 'blocked') return null;
    return { kind: 'issue_blocked', key: `issue_blocked:${entityId}`, title: 'Issue blocked', body: summary, route: `#/issues/${seg(entityId)}${q(c)}` };
  }
  if (event.type === 'issue.interaction_created') {
    const d = more();
    const interactionId = str(d.interactionId);
    if (!interactionId) return null;
    const route = `#/issues/${seg(entityId)}${q(c, `&interaction=${encodeURIComponent(interactionId)}`)}`;
    if (d.kind === 'request_confirmation') return { kind: 'confirmation', key: `confirmation:${interactionId}`, title: 'Confirmation requested', body: summary, route };
    if (d.kind === 'ask_user_questions') return { kind: 'question', key: `question:${interactionId}`, title: 'An agent asks you', body: summary, route };
    return null;
  }
  return null;
}

/** Remembers which notices were shown; bounded so a long-running app never grows without limit. */
export class NoticeDeduper {
  private readonly seen = new Set<string>();
  constructor(private readonly capacity = 5000) {}

  /** True the first time a key is offered; false for every repeat. */
  first(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    if (this.seen.size > this.capacity) {
      // Sets iterate in insertion order: drop the oldest key.
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return true;
  }
}

export interface NotifierDeps {
  details: (activityId: string) => Record<string, unknown> | null;
  supported: () => boolean;
  /** While the window is focused the board's own inbox shows the item; no OS notification. */
  windowFocused: () => boolean;
  show: (notice: Notice) => void;
}

/** Turns bus events into native notifications, at most one per entity and kind. */
export class Notifier {
  private readonly dedupe = new NoticeDeduper();
  constructor(private readonly deps: NotifierDeps) {}

  /** Inbox item ids already known; null until the first look (what waits at start is not news). */
  private knownInbox: Set<string> | null = null;

  /**
   * One notice per inbox item that appeared since the last look, for the kinds no event announces.
   * The first look only learns what is there: no burst of notices when the app starts.
   */
  handleInbox(items: readonly InboxEntry[]): Notice[] {
    const notices = inboxNotices(items);
    const first = this.knownInbox === null;
    const known = this.knownInbox ?? new Set<string>();
    this.knownInbox = new Set(notices.map((n) => n.key));
    if (first) return [];
    const shown: Notice[] = [];
    for (const notice of notices) {
      if (known.has(notice.key) || !this.dedupe.first(notice.key)) continue;
      if (!this.deps.supported() || this.deps.windowFocused()) continue;
      this.deps.show(notice);
      shown.push(notice);
    }
    return shown;
  }

  /** Returns the notice shown, or null. */
  handle(event: BusEvent): Notice | null {
    const notice = noticeFor(event, this.deps.details);
    if (!notice) return null;
    // Marked as seen even when not shown (focused window): the founder has it on screen already.
    if (!this.dedupe.first(notice.key)) return null;
    if (!this.deps.supported() || this.deps.windowFocused()) return null;
    this.deps.show(notice);
    return notice;
  }
}
