import type Database from 'better-sqlite3';
import type { Db } from '../db/connection.js';

/** An issue waiting on the board: blocked for more than a day, not dismissed. */
export interface BlockedIssue {
  itemId: string;
  id: string;
  identifier: string;
  title: string;
  /** Since when it waits: the newest blocker link, or the last activity of a `blocked` issue. */
  since: string;
}

/** Where a page of the inbox starts: after this item, in the inbox's order (newest first, then id). */
export interface InboxPosition {
  at: string;
  id: string;
}

// The long-blocked issues are the one source of the inbox that grows with the company: a board that
// let 12,500 issues sit blocked built all of them for every page (69 ms at 100,000 issues, issue 17).
// Their page and their count come from SQLite, off an index of the blocked issues alone (migration
// 0023), without reading or building an item per waiting issue.
// Two ways an issue waits: open blockers whose newest link is older than `@longAgo` ("waiting", few),
// or the status `blocked` untouched since `@longAgo` ("stale", as many as the board let sit); an
// issue both ways counts once, with its blockers' time. The statements are prepared once per
// connection: written by drizzle on each call, their text cost as much as running them.
const WAITING_AND_DISMISSED = `WITH waiting AS (
    SELECT i.id, max(b.created_at) AS since
    FROM issue_blockers b JOIN issues i ON i.id = b.issue_id
    WHERE b.company_id = @company AND i.deleted_at IS NULL AND i.status NOT IN ('done', 'cancelled')
      AND EXISTS (SELECT 1 FROM issue_blockers ob JOIN issues bi ON bi.id = ob.blocker_issue_id WHERE ob.issue_id = i.id AND bi.status <> 'done')
    GROUP BY i.id
    HAVING max(b.created_at) <= @longAgo
  ),
  dismissed AS (
    SELECT substr(item_id, 15) AS id FROM inbox_dismissals
    WHERE company_id = @company AND item_id >= 'issue_blocked:' AND item_id < 'issue_blocked;'
  )`;
// A blocked issue as the partial index (issues/schema.ts) and the count's triggers (migration 0024) see it.
const BLOCKED = `i.status = 'blocked' AND i.deleted_at IS NULL`;
const STALE = (upTo: string): string => `${BLOCKED} AND i.last_activity_at <= ${upTo}`;
// After the cursor (none when @afterAt is null), in the order newest first, then item id.
const AFTER = (since: string): string => `(@afterAt IS NULL OR ${since} < @afterAt OR (${since} = @afterAt AND 'issue_blocked:' || id > @afterId))`;

const PAGE = `${WAITING_AND_DISMISSED}
  SELECT 'issue_blocked:' || p.id AS itemId, p.id, i.identifier, i.title, p.since
  FROM (
    SELECT id, since FROM (
      SELECT * FROM (
        SELECT i.id, i.last_activity_at AS since FROM issues i
        WHERE i.company_id = @company AND ${STALE('@upTo')} AND ${AFTER('i.last_activity_at')}
          AND i.id NOT IN (SELECT id FROM waiting) AND i.id NOT IN (SELECT id FROM dismissed)
        ORDER BY i.last_activity_at DESC, i.id LIMIT @limit
      )
      UNION ALL
      SELECT id, since FROM waiting WHERE id NOT IN (SELECT id FROM dismissed) AND ${AFTER('since')}
    )
    ORDER BY since DESC, id LIMIT @limit
  ) p
  JOIN issues i ON i.id = p.id
  ORDER BY p.since DESC, p.id`;

// The stale ones are the company's blocked issues (kept by triggers, migration 0024) less those
// touched within the day: a walk of the index's newest entries, where counting the stale ones
// walked all the others.
const COUNT = `${WAITING_AND_DISMISSED}
  SELECT coalesce((SELECT blocked FROM issue_blocked_counts WHERE company_id = @company), 0)
    - (SELECT count(*) FROM issues i WHERE i.company_id = @company AND ${BLOCKED} AND i.last_activity_at > @longAgo)
    + (SELECT count(*) FROM waiting w JOIN issues i ON i.id = w.id WHERE NOT (${STALE('@longAgo')}))
    - (SELECT count(*) FROM dismissed d JOIN issues i ON i.id = d.id
        WHERE i.company_id = @company AND ((${STALE('@longAgo')}) OR i.id IN (SELECT id FROM waiting))) AS n`;

const ONE = `${WAITING_AND_DISMISSED}
  SELECT 'issue_blocked:' || i.id AS itemId, i.id, i.identifier, i.title, coalesce(w.since, i.last_activity_at) AS since
  FROM issues i LEFT JOIN waiting w ON w.id = i.id
  WHERE i.id = @issue AND i.company_id = @company AND i.id NOT IN (SELECT id FROM dismissed)
    AND (w.id IS NOT NULL OR (${STALE('@longAgo')}))`;

interface Statements {
  page: Database.Statement;
  count: Database.Statement;
  one: Database.Statement;
}
const perConnection = new WeakMap<Database.Database, Statements>();
function statements(db: Db): Statements {
  // The connection drizzle runs on: inside a transaction of `db` too, the same connection.
  const client = (db as Db & { $client: Database.Database }).$client;
  let s = perConnection.get(client);
  if (!s) perConnection.set(client, (s = { page: client.prepare(PAGE), count: client.prepare(COUNT).pluck(), one: client.prepare(ONE) }));
  return s;
}

/** The first `limit` long-blocked issues after `after`, in the inbox's order. */
export function blockedPage(db: Db, companyId: string, longAgo: string, after: InboxPosition | null, limit: number): BlockedIssue[] {
  // The stale walk starts at the cursor's time where that is older than a day.
  const upTo = after && after.at < longAgo ? after.at : longAgo;
  return statements(db).page.all({ company: companyId, longAgo, upTo, afterAt: after?.at ?? null, afterId: after?.id ?? null, limit }) as BlockedIssue[];
}

/** How many long-blocked issues are open, less the dismissed ones. */
export function blockedCount(db: Db, companyId: string, longAgo: string): number {
  return statements(db).count.get({ company: companyId, longAgo }) as number;
}

/** One long-blocked issue by its id, if it is an open item. */
export function blockedOne(db: Db, companyId: string, longAgo: string, issueId: string): BlockedIssue | undefined {
  return statements(db).one.get({ company: companyId, longAgo, issue: issueId }) as BlockedIssue | undefined;
}
