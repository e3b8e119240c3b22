import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { inboxDismissals } from './schema.js';
import type { InboxItem } from './contract.js';
import { approvals } from '../approvals/schema.js';
import { issueInteractions, issues } from '../issues/schema.js';
import { heartbeatRuns } from '../heartbeat/schema.js';
import { agents } from '../agents/schema.js';
import { budgetAlerts } from '../costs/schema.js';
import { crmActivities } from '../crm/schema.js';
import { monthWindow } from '../costs/window.js';
import { activity } from '../activity/schema.js';
import { LIMIT_EXCEEDED } from '../limits/service.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard } from '../kernel/access.js';
import { badRequest, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { inJsonList, prepared } from '../db/prepared.js';
import { blockedCount, blockedOne, blockedPage, type BlockedIssue, type InboxPosition } from './blocked.js';

/** Failed runs older than this leave the inbox by themselves. */
const RUN_LOOKBACK_MS = 7 * 24 * 3600_000;
/** An agent's limit hits stay in the inbox this long (the core records one per agent, limit and minute). */
const LIMIT_HIT_MS = 24 * 3600_000;
/** An issue waiting for blockers longer than this needs the founder. */
export const BLOCKED_FOR_MS = 24 * 3600_000;

// The small sources' statements, built once per connection (db/prepared.ts): building them afresh
// was a fifth of an inbox page's CPU.
const p = sql.placeholder;
const pendingApprovals = (db: Queryable) =>
  prepared(db, 'inbox.approvals', (d) => d.select().from(approvals).where(and(eq(approvals.companyId, p('companyId')), inArray(approvals.status, ['pending', 'resubmitted']))).prepare());
const pendingInteractions = (db: Queryable) =>
  prepared(db, 'inbox.interactions', (d) =>
    d
      .select({ i: issueInteractions, identifier: issues.identifier })
      .from(issueInteractions)
      .innerJoin(issues, eq(issues.id, issueInteractions.issueId))
      .where(and(eq(issueInteractions.companyId, p('companyId')), eq(issueInteractions.status, 'pending'), isNull(issues.deletedAt)))
      .prepare(),
  );
const failedRuns = (db: Queryable) =>
  prepared(db, 'inbox.failedRuns', (d) =>
    d
      .select({ r: heartbeatRuns, agentName: agents.name })
      .from(heartbeatRuns)
      .innerJoin(agents, eq(agents.id, heartbeatRuns.agentId))
      .where(
        and(
          eq(heartbeatRuns.companyId, p('companyId')),
          inArray(heartbeatRuns.status, ['failed', 'timed_out', 'lost']),
          gt(heartbeatRuns.queuedAt, p('since')),
          // Resolved elsewhere: a later run of the same agent succeeded.
          sql`NOT EXISTS (SELECT 1 FROM heartbeat_runs later WHERE later.agent_id = ${heartbeatRuns.agentId} AND later.status = 'succeeded' AND later.queued_at > ${heartbeatRuns.queuedAt})`,
        ),
      )
      .prepare(),
  );
const monthAlerts = (db: Queryable) =>
  prepared(db, 'inbox.budgetAlerts', (d) => d.select().from(budgetAlerts).where(and(eq(budgetAlerts.companyId, p('companyId')), eq(budgetAlerts.windowStart, p('windowStart')))).prepare());
const pendingDrafts = (db: Queryable) =>
  prepared(db, 'inbox.crmDrafts', (d) => d.select().from(crmActivities).where(and(eq(crmActivities.companyId, p('companyId')), eq(crmActivities.status, 'draft_pending_approval'))).prepare());
const limitHits = (db: Queryable) =>
  prepared(db, 'inbox.limitHits', (d) =>
    d
      .select()
      .from(activity)
      // The action as a literal, so SQLite can use the partial index of limit hits (activity/schema.ts).
      .where(and(eq(activity.companyId, p('companyId')), sql.raw(`action = '${LIMIT_EXCEEDED}'`), gt(activity.createdAt, p('since'))))
      .prepare(),
  );

/**
 * Everything waiting on the board but the long-blocked issues (blocked.ts), computed from the live
 * records each time, so an item resolved elsewhere (approved, answered, a later run succeeded) is
 * simply gone. Each of these sources stays small: what waits for a decision, the last week's
 * failed runs, this month's budget alerts, the last day's limit hits.
 */
function collect(db: Queryable, companyId: string, now: Date): InboxItem[] {
  const items: InboxItem[] = [];
  for (const a of pendingApprovals(db).all({ companyId })) {
    items.push({
      id: `approval:${a.id}`,
      kind: 'approval',
      title: a.type === 'hire_agent' ? `Hire ${typeof a.payload.name === 'string' ? a.payload.name : 'an agent'}` : `Strategy: ${typeof a.payload.title === 'string' ? a.payload.title : 'CEO strategy'}`,
      summary: a.status === 'resubmitted' ? 'Resubmitted after your revision request' : 'Waiting for your decision',
      createdAt: a.updatedAt,
      link: { type: 'approval', id: a.id, path: `/approvals/${a.id}` },
      actions: ['approve', 'reject', 'dismiss'],
      refs: { approvalId: a.id },
    });
  }
  const interactions = pendingInteractions(db).all({ companyId });
  for (const { i, identifier } of interactions) {
    items.push({
      id: `interaction:${i.id}`,
      kind: 'interaction',
      title: `${identifier}: ${i.title}`,
      summary: i.summary || i.kind.replace(/_/g, ' '),
      createdAt: i.createdAt,
      link: { type: 'issue', id: i.issueId, path: `/issues/${identifier}` },
      actions: i.kind === 'ask_user_questions' ? ['answer', 'open', 'dismiss'] : ['accept', 'reject', 'dismiss'],
      refs: { issueId: i.issueId, interactionId: i.id, interactionKind: i.kind },
    });
  }
  const since = new Date(now.getTime() - RUN_LOOKBACK_MS).toISOString();
  const failed = failedRuns(db).all({ companyId, since });
  for (const { r, agentName } of failed) {
    items.push({
      id: `run_failed:${r.id}`,
      kind: 'run_failed',
      title: `${agentName}: run ${r.status === 'timed_out' ? 'timed out' : r.status}`,
      summary: r.errorCode ?? '',
      createdAt: r.finishedAt ?? r.queuedAt,
      link: { type: 'heartbeat_run', id: r.id, path: `/runs/${r.id}` },
      actions: ['retry', 'open', 'dismiss'],
      refs: { runId: r.id, agentId: r.agentId, issueId: r.taskIssueId },
    });
  }
  const month = monthWindow(now);
  for (const b of monthAlerts(db).all({ companyId, windowStart: month.start })) {
    const stop = b.threshold >= 100;
    items.push({
      id: `${stop ? 'budget_stop' : 'budget_warning'}:${b.id}`,
      kind: stop ? 'budget_stop' : 'budget_warning',
      title: `${b.agentId ? 'Agent' : 'Company'} budget ${stop ? 'reached: work stopped' : `at ${b.threshold}%`}`,
      summary: `${(b.spentMicroCents / 1_000_000 / 100).toFixed(2)} of ${(b.budgetCents / 100).toFixed(2)} this month`,
      createdAt: b.createdAt,
      link: { type: 'costs', id: b.agentId ?? companyId, path: '/costs' },
      actions: ['open', 'dismiss'],
      refs: { agentId: b.agentId },
    });
  }
  for (const d of pendingDrafts(db).all({ companyId })) {
    items.push({
      id: `crm_draft:${d.id}`,
      kind: 'crm_draft',
      title: `CRM draft to ${d.contact}`,
      summary: `${d.channel} ${d.kind}`,
      createdAt: d.createdAt,
      link: { type: 'crm_activity', id: d.id, path: '/crm' },
      actions: ['approve', 'reject', 'dismiss'],
      refs: { activityId: d.id },
    });
  }
  // One item per agent and limit, named after its newest hit: a hit after a dismissal is a new item.
  const hits = limitHits(db).all({ companyId, since: new Date(now.getTime() - LIMIT_HIT_MS).toISOString() });
  const newest = new Map<string, (typeof hits)[number]>();
  for (const h of hits) {
    const key = `${h.entityId}:${String(h.details?.limit ?? '')}`;
    const seen = newest.get(key);
    if (!seen || seen.seq < h.seq) newest.set(key, h);
  }
  for (const h of newest.values()) {
    const count = hits.filter((x) => x.entityId === h.entityId && x.details?.limit === h.details?.limit).length;
    // The activity reads "<agent> hit a limit: <which limit>": the title names the agent, the summary the limit.
    const cut = h.summary.indexOf(': ');
    const [who, which] = cut < 0 ? [h.summary, ''] : [h.summary.slice(0, cut), h.summary.slice(cut + 2)];
    items.push({
      id: `limit_hit:${h.id}`,
      kind: 'limit_hit',
      title: who,
      summary: count > 1 ? `${which} · ${count} times in the last day` : which,
      createdAt: h.createdAt,
      // A limit hit inside a run (its transcript cap) links to that run, any other to the agent.
      link: typeof h.details?.runId === 'string' ? { type: 'heartbeat_run', id: h.details.runId, path: `/runs/${h.details.runId}` } : { type: 'agent', id: h.entityId, path: `/agents/${h.entityId}` },
      actions: ['open', 'dismiss'],
      refs: { agentId: h.entityId, limit: typeof h.details?.limit === 'string' ? h.details.limit : null },
    });
  }
  return items;
}

/** An inbox item for a long-blocked issue. */
const blockedItem = (b: BlockedIssue): InboxItem => ({
  id: b.itemId,
  kind: 'issue_blocked',
  title: `${b.identifier} blocked for more than a day`,
  summary: b.title,
  createdAt: b.since,
  link: { type: 'issue', id: b.id, path: `/issues/${b.identifier}` },
  actions: ['open', 'dismiss'],
  refs: { issueId: b.id },
});

// Newest first, then by id, compared as SQLite compares text (blocked.ts pages in this same order).
const inboxOrder = (a: InboxItem, b: InboxItem): number => (a.createdAt !== b.createdAt ? (a.createdAt < b.createdAt ? 1 : -1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const isAfter = (i: InboxItem, after: InboxPosition | null): boolean => !after || i.createdAt < after.at || (i.createdAt === after.at && i.id > after.id);

/** Where a page ended: the last item's time and id. */
const encodeCursor = (item: InboxItem): string => Buffer.from(JSON.stringify({ at: item.createdAt, id: item.id })).toString('base64url');
function decodeCursor(cursor: string): InboxPosition {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    if (typeof c.at === 'string' && typeof c.id === 'string') return { at: c.at, id: c.id };
  } catch {
    // fall through
  }
  throw badRequest('invalid_cursor', 'query.cursor: not a cursor from this inbox');
}

export function createInboxService(ctx: CoreContext) {
  /** The open items of the small sources (all but the long-blocked issues), in the inbox's order. */
  const openSmall = (db: Queryable, companyId: string, now: Date): InboxItem[] => {
    const items = collect(db, companyId, now);
    const dismissed = new Set(
      items.length === 0
        ? []
        : db
            .select({ id: inboxDismissals.itemId })
            .from(inboxDismissals)
            .where(and(eq(inboxDismissals.companyId, companyId), inJsonList(inboxDismissals.itemId)))
            .all({ ids: JSON.stringify(items.map((i) => i.id)) })
            .map((d) => d.id),
    );
    return items.filter((i) => !dismissed.has(i.id)).sort(inboxOrder);
  };
  const longAgo = (now: Date): string => new Date(now.getTime() - BLOCKED_FOR_MS).toISOString();

  return {
    /**
     * Newest first, one page at a time; `count` is every open item. The inbox is the founder's:
     * board only. The long-blocked issues are paged and counted by SQLite, the other sources are
     * merged in: a page costs the same with 10 or 12,500 issues waiting.
     */
    list(actor: Actor, companyId: string, page: { limit: number; cursor?: string | undefined }): { items: InboxItem[]; count: number; nextCursor: string | null } {
      assertBoard(actor, 'read the inbox');
      assertCompany(ctx.db, actor, companyId);
      const after = page.cursor === undefined ? null : decodeCursor(page.cursor);
      const now = ctx.clock.now();
      const small = openSmall(ctx.db, companyId, now);
      // One more than the page asks, from each side: what follows the page says whether there is more.
      const merged = [...small.filter((i) => isAfter(i, after)).slice(0, page.limit + 1), ...blockedPage(ctx.db, companyId, longAgo(now), after, page.limit + 1).map(blockedItem)].sort(inboxOrder);
      const items = merged.slice(0, page.limit);
      const last = items[items.length - 1];
      const count = small.length + blockedCount(ctx.db, companyId, longAgo(now));
      return { items, count, nextCursor: merged.length > page.limit && last ? encodeCursor(last) : null };
    },

    dismiss(actor: Actor, companyId: string, itemId: string): void {
      assertBoard(actor, 'dismiss inbox items');
      inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const now = ctx.clock.now();
        // The same connection as tx: the statement sees this transaction.
        const blocked = itemId.startsWith('issue_blocked:') ? blockedOne(ctx.db, companyId, longAgo(now), itemId.slice('issue_blocked:'.length)) : undefined;
        const item = blocked ? blockedItem(blocked) : openSmall(tx, companyId, now).find((i) => i.id === itemId);
        if (!item) throw notFound('Inbox item');
        const at = isoNow(ctx);
        tx.insert(inboxDismissals).values({ companyId, itemId, dismissedAt: at }).onConflictDoNothing().run();
        recordActivity(tx, at, actor, { companyId, action: 'inbox.dismissed', entityType: 'inbox_item', entityId: itemId, summary: `Inbox item dismissed: ${item.title}`, details: { kind: item.kind } });
      });
    },
  };
}
