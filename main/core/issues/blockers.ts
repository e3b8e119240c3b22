import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { inJsonList, prepared } from '../db/prepared.js';
import { issues, wakeRequests, type IssueRow } from './schema.js';
import { issueBlockers } from './blockers-schema.js';
import { requireIssue } from './lookup.js';
import { requestWake } from './wake.js';
import type { Actor } from '../kernel/actor.js';
import { badRequest, conflict, notFound, ServiceError } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext, type Queryable, type Tx } from '../context.js';

export interface IssueRelations {
  /** Issues this one waits for. */
  blockedBy: string[];
  /** Issues waiting for this one. */
  blocks: string[];
  /** Blockers not yet done: while any is left, checkout answers 409 issue_blocked. */
  openBlockerIds: string[];
}

/** Blockers of `issueId` whose status is not `done`. */
export function openBlockers(db: Queryable, issueId: string): { id: string; identifier: string }[] {
  return openBlockersOf(db).all({ issueId });
}

// Read by every checkout: built once per connection (db/prepared.ts).
const openBlockersOf = (db: Queryable) =>
  prepared(db, 'blockers.open', (d) =>
    d
      .select({ id: issues.id, identifier: issues.identifier })
      .from(issueBlockers)
      .innerJoin(issues, eq(issues.id, issueBlockers.blockerIssueId))
      .where(and(eq(issueBlockers.issueId, sql.placeholder('issueId')), ne(issues.status, 'done')))
      .prepare(),
  );

/** The 409 a checkout of an issue with open blockers gets, or null. */
export function blockedRefusal(db: Queryable, issue: Pick<IssueRow, 'id' | 'identifier'>): ServiceError | null {
  const open = openBlockers(db, issue.id);
  if (open.length === 0) return null;
  return conflict('issue_blocked', `${issue.identifier} waits for ${open.map((b) => b.identifier).join(', ')}; it can be checked out once they are done`, {
    blockerIds: open.map((b) => b.id),
    blockerIdentifiers: open.map((b) => b.identifier),
    retry: false,
  });
}

// Read for every issue a route answers with: built once per connection (db/prepared.ts), the
// ids passed as one JSON array so a page of any length is the same statement.
const blockersOf = (db: Queryable) =>
  prepared(db, 'blockers.of', (d) =>
    d
      .select({ issueId: issueBlockers.issueId, blockerIssueId: issueBlockers.blockerIssueId, blockerStatus: issues.status })
      .from(issueBlockers)
      .innerJoin(issues, eq(issues.id, issueBlockers.blockerIssueId))
      .where(inJsonList(issueBlockers.issueId))
      .prepare(),
  );
const blockedByThese = (db: Queryable) =>
  prepared(db, 'blockers.blocking', (d) =>
    d.select({ issueId: issueBlockers.issueId, blockerIssueId: issueBlockers.blockerIssueId }).from(issueBlockers).where(inJsonList(issueBlockers.blockerIssueId)).prepare(),
  );

/** Both directions for many issues at once (list pages). */
export function relationsOf(db: Queryable, issueIds: string[]): Map<string, IssueRelations> {
  const out = new Map<string, IssueRelations>(issueIds.map((id) => [id, { blockedBy: [], blocks: [], openBlockerIds: [] }]));
  if (issueIds.length === 0) return out;
  const ids = JSON.stringify(issueIds);
  const rows = blockersOf(db).all({ ids });
  for (const r of rows) {
    const rel = out.get(r.issueId)!;
    rel.blockedBy.push(r.blockerIssueId);
    if (r.blockerStatus !== 'done') rel.openBlockerIds.push(r.blockerIssueId);
  }
  const reverse = blockedByThese(db).all({ ids });
  for (const r of reverse) out.get(r.blockerIssueId)!.blocks.push(r.issueId);
  return out;
}

/** Whether `from` already waits, directly or through others, for `target`. */
function reaches(db: Queryable, from: string, target: string): boolean {
  const seen = new Set<string>();
  let frontier = [from];
  while (frontier.length > 0) {
    if (frontier.includes(target)) return true;
    for (const id of frontier) seen.add(id);
    const next = db.select({ id: issueBlockers.blockerIssueId }).from(issueBlockers).where(inArray(issueBlockers.issueId, frontier)).all();
    frontier = [...new Set(next.map((n) => n.id))].filter((id) => !seen.has(id));
  }
  return false;
}

/**
 * Wakes the assignee of each issue that `doneIssue` was the last open blocker of. The wake is a
 * stored request like any other, so the engine coalesces it with whatever else is pending; if one
 * for the same agent and issue is already pending, none is added.
 */
export function wakeUnblocked(tx: Tx, at: string, actor: Actor | 'system', doneIssue: IssueRow, why: string): void {
  const waiting = tx
    .select()
    .from(issues)
    .where(inArray(issues.id, tx.select({ id: issueBlockers.issueId }).from(issueBlockers).where(eq(issueBlockers.blockerIssueId, doneIssue.id))))
    .all();
  for (const issue of waiting) {
    if (issue.status === 'done' || issue.status === 'cancelled') continue;
    if (openBlockers(tx, issue.id).length > 0) continue;
    let woke = false;
    if (issue.assigneeAgentId) {
      const pending = tx
        .select({ id: wakeRequests.id })
        .from(wakeRequests)
        .where(and(eq(wakeRequests.agentId, issue.assigneeAgentId), eq(wakeRequests.issueId, issue.id), eq(wakeRequests.status, 'pending')))
        .get();
      if (!pending) requestWake(tx, at, { companyId: issue.companyId, agentId: issue.assigneeAgentId, reason: 'assignment', issueId: issue.id });
      woke = true;
    }
    recordActivity(tx, at, actor, {
      companyId: issue.companyId,
      action: 'issue.unblocked',
      entityType: 'issue',
      entityId: issue.id,
      summary: `${issue.identifier} is unblocked: ${why}${woke ? '; its assignee is woken' : ''}`,
      details: { blockerIssueId: doneIssue.id, assigneeAgentId: issue.assigneeAgentId },
    });
  }
}

export function createBlockersService(ctx: CoreContext) {
  return {
    add(actor: Actor, issueRef: string, blockerRef: string): IssueRelations {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssue(tx, actor, issueRef);
        let blocker: IssueRow;
        try {
          blocker = requireIssue(tx, actor, blockerRef);
        } catch {
          throw badRequest('invalid_blocker', 'body.blockerIssueId: no such issue', { problems: [{ location: 'body', path: 'body.blockerIssueId', message: 'not an issue' }] });
        }
        if (blocker.companyId !== issue.companyId) {
          throw badRequest('invalid_blocker', 'body.blockerIssueId: must be an issue of the same company', { problems: [{ location: 'body', path: 'body.blockerIssueId', message: 'other company' }] });
        }
        if (blocker.id === issue.id || reaches(tx, blocker.id, issue.id)) {
          throw conflict('dependency_cycle', `${blocker.identifier} already waits for ${issue.identifier}; blocking it would make a cycle`, { issueId: issue.id, blockerIssueId: blocker.id });
        }
        const at = isoNow(ctx);
        const inserted = tx.insert(issueBlockers).values({ companyId: issue.companyId, issueId: issue.id, blockerIssueId: blocker.id, createdAt: at }).onConflictDoNothing().run();
        if (inserted.changes > 0) {
          // Assignment wakes not yet consumed would start work that checkout now refuses.
          if (blocker.status !== 'done') {
            tx.update(wakeRequests)
              .set({ status: 'skipped', skipReason: `the issue waits for ${blocker.identifier}`, processedAt: at })
              .where(and(eq(wakeRequests.issueId, issue.id), eq(wakeRequests.status, 'pending'), eq(wakeRequests.reason, 'assignment')))
              .run();
          }
          recordActivity(tx, at, actor, {
            companyId: issue.companyId,
            action: 'issue.blocker_added',
            entityType: 'issue',
            entityId: issue.id,
            summary: `${issue.identifier} now waits for ${blocker.identifier}`,
            details: { blockerIssueId: blocker.id },
          });
        }
        return relationsOf(tx, [issue.id]).get(issue.id)!;
      });
    },

    remove(actor: Actor, issueRef: string, blockerIssueId: string): IssueRelations {
      return inTransaction(ctx, (tx) => {
        const issue = requireIssue(tx, actor, issueRef);
        const blocker = tx.select().from(issues).where(eq(issues.id, blockerIssueId)).get();
        const removed = tx.delete(issueBlockers).where(and(eq(issueBlockers.issueId, issue.id), eq(issueBlockers.blockerIssueId, blockerIssueId))).run();
        if (removed.changes === 0 || !blocker) throw notFound('Blocker');
        const at = isoNow(ctx);
        recordActivity(tx, at, actor, {
          companyId: issue.companyId,
          action: 'issue.blocker_removed',
          entityType: 'issue',
          entityId: issue.id,
          summary: `${issue.identifier} no longer waits for ${blocker.identifier}`,
          details: { blockerIssueId },
        });
        const wasOpen = blocker.status !== 'done';
        if (wasOpen && openBlockers(tx, issue.id).length === 0 && issue.assigneeAgentId && issue.status !== 'done' && issue.status !== 'cancelled') {
          const pending = tx.select({ id: wakeRequests.id }).from(wakeRequests).where(and(eq(wakeRequests.agentId, issue.assigneeAgentId), eq(wakeRequests.issueId, issue.id), eq(wakeRequests.status, 'pending'))).get();
          if (!pending) requestWake(tx, at, { companyId: issue.companyId, agentId: issue.assigneeAgentId, reason: 'assignment', issueId: issue.id });
          recordActivity(tx, at, actor, {
            companyId: issue.companyId,
            action: 'issue.unblocked',
            entityType: 'issue',
            entityId: issue.id,
            summary: `${issue.identifier} is unblocked: its last open blocker ${blocker.identifier} was removed; its assignee is woken`,
            details: { blockerIssueId, assigneeAgentId: issue.assigneeAgentId },
          });
        }
        return relationsOf(tx, [issue.id]).get(issue.id)!;
      });
    },
  };
}
