import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { prepared } from '../db/prepared.js';
import { activity, type ActivityRow } from './schema.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import { emitOnCommit, type CoreContext, type Queryable } from '../context.js';
import { assertCompanyAccess } from '../kernel/access.js';
import type { ActivityKind } from '../kernel/events.js';

export interface ActivityEntry {
  companyId: string | null;
  /** Also the kind of the live event it raises (kernel/events.ts). */
  action: ActivityKind;
  entityType: string;
  entityId: string;
  /** One human sentence. Never a secret value, token or request body. */
  summary: string;
  details?: Record<string, unknown>;
}

/**
 * Writes one activity record inside the caller's transaction, so it lands with the change, and
 * queues the matching event (type = action) for the company stream once the transaction commits.
 */
export function recordActivity(tx: Queryable, at: string, actor: Actor | 'system', entry: ActivityEntry): void {
  const ref = actor === 'system' ? { actorType: 'system' as const, actorId: null } : actorRef(actor);
  const id = newId();
  if (entry.companyId) {
    emitOnCommit(tx, {
      companyId: entry.companyId,
      type: entry.action,
      data: { activityId: id, entityType: entry.entityType, entityId: entry.entityId, summary: entry.summary, ...ref },
    });
  }
  insertActivity(tx).run({
    id,
    companyId: entry.companyId,
    actorType: ref.actorType,
    actorId: ref.actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    summary: entry.summary,
    details: entry.details ? JSON.stringify(entry.details) : null,
    createdAt: at,
  });
}

// Every write records one: built once per connection (db/prepared.ts). Each column is a
// placeholder, so no column default is frozen into the statement.
const insertActivity = (db: Queryable) =>
  prepared(db, 'activity.insert', (d) => {
    const p = sql.placeholder;
    return d
      .insert(activity)
      .values({
        id: p('id'),
        companyId: p('companyId'),
        actorType: p('actorType'),
        actorId: p('actorId'),
        action: p('action'),
        entityType: p('entityType'),
        entityId: p('entityId'),
        summary: p('summary'),
        // Bound as SQL, not through the JSON column's encoder, so no details stay SQL NULL.
        details: sql`${p('details')}`,
        createdAt: p('createdAt'),
      })
      .prepare();
  });

export interface ActivityPage {
  items: ActivityRow[];
  nextCursor: string | null;
}

export interface ActivityQuery {
  limit: number;
  cursor?: string | undefined;
  entityType?: string | undefined;
  entityId?: string | undefined;
  action?: string | undefined;
}

export const encodeCursor = (seq: number): string => Buffer.from(`a:${seq}`).toString('base64url');
export function decodeCursor(cursor: string): number | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const m = /^a:(\d{1,15})$/.exec(text);
  return m ? Number(m[1]) : null;
}

export function createActivityService(ctx: CoreContext) {
  return {
    /** Newest first. The cursor is opaque to clients. */
    list(actor: Actor, companyId: string, query: ActivityQuery, before: number | null): ActivityPage {
      assertCompanyAccess(actor, companyId);
      const filters: SQL[] = [eq(activity.companyId, companyId)];
      if (before !== null) filters.push(lt(activity.seq, before));
      if (query.entityType) filters.push(eq(activity.entityType, query.entityType));
      if (query.entityId) filters.push(eq(activity.entityId, query.entityId));
      if (query.action) filters.push(eq(activity.action, query.action));
      const rows = ctx.db
        .select()
        .from(activity)
        .where(and(...filters))
        .orderBy(desc(activity.seq))
        .limit(query.limit + 1)
        .all();
      const items = rows.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > query.limit && last ? encodeCursor(last.seq) : null };
    },
  };
}
