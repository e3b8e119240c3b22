import { and, eq, gt, inArray, isNull, lte, notInArray, sql } from 'drizzle-orm';
import { inboxDismissals } from './schema.js';
import type { InboxItem } from './contract.js';
import { approvals } from '../approvals/schema.js';
import { issueInteractions, issues } from '../issues/schema.js';
import { issueBlockers } from '../issues/blockers-schema.js';
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

/** Failed runs older than this leave the inbox by themselves. */
const RUN_LOOKBACK_MS = 7 * 24 * 3600_000;
/** An agent's limit hits stay in the inbox this long (the core records one per agent, limit and minute). */
const LIMIT_HIT_MS = 24 * 3600_000;
/** An issue waiting for blockers longer than this needs the founder. */
export const BLOCKED_FOR_MS = 24 * 3600_000;

/**
 * Everything waiting on the board, computed from the live records each time, so an item resolved
 * elsewhere (approved, answered, a later run succeeded, the blocker done) is simply gone.
 */
function collect(db: Queryable, companyId: string, now: Date): InboxItem[] {
  const items: InboxItem[] = [];
  for (const a of db.select().from(approvals).where(and(eq(approvals.companyId, companyId), inArray(approvals.status, ['pending', 'resubmitted']))).all()) {
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
  const interactions = db
    .select({ i: issueInteractions, identifier: issues.identifier })
    .from(issueInteractions)
    .innerJoin(issues, eq(issues.id, issueInteractions.issueId))
    .where(and(eq(issueInteractions.companyId, companyId), eq(issueInteractions.status, 'pending'), isNull(issues.deletedAt)))
    .all();
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
  const failed = db
    .select({ r: heartbeatRuns, agentName: agents.name })
    .from(heartbeatRuns)
    .innerJoin(agents, eq(agents.id, heartbeatRuns.agentId))
    .where(
      and(
        eq(heartbeatRuns.companyId, companyId),
        inArray(heartbeatRuns.status, ['failed', 'timed_out', 'lost']),
        gt(heartbeatRuns.queuedAt, since),
        // Resolved elsewhere: a later run of the same agent succeeded.
        sql`NOT EXISTS (SELECT 1 FROM heartbeat_runs later WHERE later.agent_id = ${heartbeatRuns.agentId} AND later.status = 'succeeded' AND later.queued_at > ${heartbeatRuns.queuedAt})`,
      ),
    )
    .all();
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
  for (const b of db.select().from(budgetAlerts).where(and(eq(budgetAlerts.companyId, companyId), eq(budgetAlerts.windowStart, month.start))).all()) {
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
  const longAgo = new Date(now.getTime() - BLOCKED_FOR_MS).toISOString();
  const blocked = db
    .select({ issue: issues, since: sql<string>`max(${issueBlockers.createdAt})` })
    .from(issueBlockers)
    .innerJoin(issues, eq(issues.id, issueBlockers.issueId))
    .where(
      and(
        eq(issueBlockers.companyId, companyId),
        notInArray(issues.status, ['done', 'cancelled']),
        sql`EXISTS (SELECT 1 FROM issue_blockers ob JOIN issues bi ON bi.id = ob.blocker_issue_id WHERE ob.issue_id = ${issues.id} AND bi.status <> 'done')`,
      ),
    )
    .groupBy(issues.id)
    .having(lte(sql`max(${issueBlockers.createdAt})`, longAgo))
    .all();
  // Issues an agent (or the board) set to `blocked` and nobody touched for a day count too.
  const waiting = new Set(blocked.map((b) => b.issue.id));
  const stale = db
    .select({ id: issues.id, identifier: issues.identifier, title: issues.title, lastActivityAt: issues.lastActivityAt })
    .from(issues)
    .where(and(eq(issues.companyId, companyId), eq(issues.status, 'blocked'), lte(issues.lastActivityAt, longAgo)))
    .all()
    .filter((i) => !waiting.has(i.id))
    .map((issue) => ({ issue, since: issue.lastActivityAt }));
  for (const { issue, since: blockedSince } of [...blocked, ...stale]) {
    items.push({
      id: `issue_blocked:${issue.id}`,
      kind: 'issue_blocked',
      title: `${issue.identifier} blocked for more than a day`,
      summary: issue.title,
      createdAt: blockedSince,
      link: { type: 'issue', id: issue.id, path: `/issues/${issue.identifier}` },
      actions: ['open', 'dismiss'],
      refs: { issueId: issue.id },
    });
  }
  for (const d of db.select().from(crmActivities).where(and(eq(crmActivities.companyId, companyId), eq(crmActivities.status, 'draft_pending_approval'))).all()) {
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
  const hits = db
    .select()
    .from(activity)
    // The action as a literal, so SQLite can use the partial index of limit hits (activity/schema.ts).
    .where(and(eq(activity.companyId, companyId), sql.raw(`action = '${LIMIT_EXCEEDED}'`), gt(activity.createdAt, new Date(now.getTime() - LIMIT_HIT_MS).toISOString())))
    .all();
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

/** Where a page ended: the last item's time and id (the order is newest first, then by id). */
const encodeCursor = (item: InboxItem): string => Buffer.from(JSON.stringify({ at: item.createdAt, id: item.id })).toString('base64url');
function decodeCursor(cursor: string): { at: string; id: string } {
  try {
    const c = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { at?: unknown; id?: unknown };
    if (typeof c.at === 'string' && typeof c.id === 'string') return { at: c.at, id: c.id };
  } catch {
    // fall through
  }
  throw badRequest('invalid_cursor', 'query.cursor: not a cursor from this inbox');
}

export function createInboxService(ctx: CoreContext) {
  const open = (db: Queryable, companyId: string): InboxItem[] => {
    const dismissed = new Set(db.select({ id: inboxDismissals.itemId }).from(inboxDismissals).where(eq(inboxDismissals.companyId, companyId)).all().map((d) => d.id));
    return collect(db, companyId, ctx.clock.now())
      .filter((i) => !dismissed.has(i.id))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id.localeCompare(b.id)));
  };
  return {
    /**
     * Newest first, one page at a time; `count` is every open item. The inbox is the founder's:
     * board only. A company with thousands of stale blocked issues answered megabytes at once.
     */
    list(actor: Actor, companyId: string, page: { limit: number; cursor?: string | undefined }): { items: InboxItem[]; count: number; nextCursor: string | null } {
      assertBoard(actor, 'read the inbox');
      assertCompany(ctx.db, actor, companyId);
      const all = open(ctx.db, companyId);
      const after = page.cursor === undefined ? null : decodeCursor(page.cursor);
      const start = after ? all.findIndex((i) => i.createdAt < after.at || (i.createdAt === after.at && i.id.localeCompare(after.id) > 0)) : 0;
      const items = start < 0 ? [] : all.slice(start, start + page.limit);
      const last = items[items.length - 1];
      const more = start >= 0 && start + page.limit < all.length;
      return { items, count: all.length, nextCursor: more && last ? encodeCursor(last) : null };
    },

    dismiss(actor: Actor, companyId: string, itemId: string): void {
      assertBoard(actor, 'dismiss inbox items');
      inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const item = open(tx, companyId).find((i) => i.id === itemId);
        if (!item) throw notFound('Inbox item');
        const at = isoNow(ctx);
        tx.insert(inboxDismissals).values({ companyId, itemId, dismissedAt: at }).onConflictDoNothing().run();
        recordActivity(tx, at, actor, { companyId, action: 'inbox.dismissed', entityType: 'inbox_item', entityId: itemId, summary: `Inbox item dismissed: ${item.title}`, details: { kind: item.kind } });
      });
    },
  };
}

