import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import { desc, eq, and } from 'drizzle-orm';
import { agentConfigRevisions, type AgentConfigRevisionRow } from './schema.js';
import type { ConfigRevision } from './contract.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { actorRef } from '../kernel/actor.js';
import type { Queryable } from '../context.js';
import { agents } from './schema.js';
import { configSeenBy } from '../secrets/grants.js';

export const toConfigRevision = (row: AgentConfigRevisionRow): ConfigRevision => ({
  id: row.id,
  agentId: row.agentId,
  revisionNumber: row.revisionNumber,
  adapterType: row.adapterType,
  adapterConfig: row.adapterConfig,
  reason: row.reason,
  rolledBackFromRevisionId: row.rolledBackFromRevisionId,
  actorType: row.actorType,
  actorId: row.actorId,
  createdAt: row.createdAt,
});

/** Appends the next numbered revision of an agent's configuration. */
export function appendConfigRevision(
  tx: Queryable,
  at: string,
  actor: Actor | 'system',
  input: {
    agentId: string;
    adapterType: string;
    adapterConfig: Record<string, unknown>;
    reason: AgentConfigRevisionRow['reason'];
    rolledBackFromRevisionId?: string | null;
  },
): AgentConfigRevisionRow {
  const last = tx
    .select({ n: agentConfigRevisions.revisionNumber })
    .from(agentConfigRevisions)
    .where(eq(agentConfigRevisions.agentId, input.agentId))
    .orderBy(desc(agentConfigRevisions.revisionNumber))
    .limit(1)
    .get();
  const ref = actor === 'system' ? { actorType: 'system' as const, actorId: null } : actorRef(actor);
  return tx
    .insert(agentConfigRevisions)
    .values({
      id: newId(),
      agentId: input.agentId,
      revisionNumber: (last?.n ?? 0) + 1,
      adapterType: input.adapterType,
      adapterConfig: input.adapterConfig,
      reason: input.reason,
      rolledBackFromRevisionId: input.rolledBackFromRevisionId ?? null,
      actorType: ref.actorType,
      actorId: ref.actorId,
      createdAt: at,
    })
    .returning()
    .get();
}

/** Newest first, each configuration as `viewer` may see it (a colleague sees no values, secrets/grants.ts). */
export function listConfigRevisions(db: Queryable, viewer: Actor, agentId: string, page: KeysetQuery): KeysetPage<ConfigRevision> {
  const owner = db.select({ companyId: agents.companyId }).from(agents).where(eq(agents.id, agentId)).get();
  const order = keyset(agentConfigRevisions, agentConfigRevisions.revisionNumber, 'desc');
  const rows = db
    .select({ row: agentConfigRevisions, rowid: order.rowid })
    .from(agentConfigRevisions)
    .where(and(eq(agentConfigRevisions.agentId, agentId), order.after(page.after)))
    .orderBy(...order.orderBy)
    .limit(page.limit + 1)
    .all();
  return order.page(rows, page.limit, (r) => r.row.revisionNumber, ({ row }) => ({ ...toConfigRevision(row), adapterConfig: configSeenBy(db, viewer, agentId, owner?.companyId ?? '', row.adapterConfig) }));
}

export function findConfigRevision(db: Queryable, agentId: string, revisionId: string) {
  return db
    .select()
    .from(agentConfigRevisions)
    .where(and(eq(agentConfigRevisions.agentId, agentId), eq(agentConfigRevisions.id, revisionId)))
    .get();
}
