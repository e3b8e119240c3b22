import { and, eq, isNull, sql } from 'drizzle-orm';
import { agentApiKeys, agents, type AgentApiKeyRow } from './schema.js';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import type { AgentKey } from './contract.js';
import { requireAgent } from './service.js';
import { newId } from '../kernel/ids.js';
import type { Actor } from '../kernel/actor.js';
import { assertBoard } from '../kernel/access.js';
import { conflict, notFound } from '../kernel/errors.js';
import { recordActivity } from '../activity/service.js';
import { inTransaction, isoNow, type CoreContext } from '../context.js';
import { AGENT_KEY_DISPLAY_LENGTH, generateAgentKey, hashKey } from '../auth/tokens.js';
import { verifiedKeysOf, type KeyIdentity } from './verified-keys.js';

const toAgentKey = (row: AgentApiKeyRow): AgentKey => ({
  id: row.id,
  agentId: row.agentId,
  name: row.name,
  prefix: row.prefix,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  revokedAt: row.revokedAt,
});

export type { KeyIdentity } from './verified-keys.js';

/** Long-lived agent API keys. Managing them is board-only; the full key is returned once. */
export function createAgentKeysService(ctx: CoreContext) {
  const verified = verifiedKeysOf(ctx);
  const keyByHash = ctx.db
    .select({ keyId: agentApiKeys.id, agentId: agents.id, companyId: agents.companyId, status: agents.status })
    .from(agentApiKeys)
    .innerJoin(agents, eq(agents.id, agentApiKeys.agentId))
    .where(and(eq(agentApiKeys.keyHash, sql.placeholder('hash')), isNull(agentApiKeys.revokedAt)))
    .prepare();
  // When this process last wrote a key's last use: the once-a-minute rule without a read per request.
  const touched = new Map<string, number>();
  return {

    create(actor: Actor, agentId: string, name: string | undefined): AgentKey & { key: string } {
      assertBoard(actor, 'manage agent keys');
      return inTransaction(ctx, (tx) => {
        const agent = requireAgent(tx, actor, agentId);
        if (agent.status === 'terminated') throw conflict('agent_terminated', 'A terminated agent cannot get keys');
        if (agent.status === 'draft') throw conflict('agent_draft', 'A draft agent gets keys once its hire is approved');
        const key = generateAgentKey();
        const at = isoNow(ctx);
        const row = tx
          .insert(agentApiKeys)
          .values({
            id: newId(),
            agentId,
            companyId: agent.companyId,
            name: name ?? '',
            prefix: key.slice(0, AGENT_KEY_DISPLAY_LENGTH),
            keyHash: hashKey(key),
            createdAt: at,
          })
          .returning()
          .get();
        recordActivity(tx, at, actor, {
          companyId: agent.companyId,
          action: 'agent_key.created',
          entityType: 'agent',
          entityId: agentId,
          summary: `API key ${row.prefix}… created for agent "${agent.name}"`,
          details: { keyId: row.id },
        });
        return { ...toAgentKey(row), key };
      });
    },

    /** Newest first, one page at a time (revoked keys stay listed, so the list only grows). */
    list(actor: Actor, agentId: string, page: KeysetQuery): KeysetPage<AgentKey> {
      assertBoard(actor, 'manage agent keys');
      requireAgent(ctx.db, actor, agentId);
      return keyset(agentApiKeys, agentApiKeys.createdAt, 'desc').pageOf(ctx.db, eq(agentApiKeys.agentId, agentId), page, toAgentKey);
    },

    revoke(actor: Actor, agentId: string, keyId: string): AgentKey {
      assertBoard(actor, 'manage agent keys');
      return inTransaction(ctx, (tx) => {
        const agent = requireAgent(tx, actor, agentId);
        const row = tx
          .select()
          .from(agentApiKeys)
          .where(and(eq(agentApiKeys.id, keyId), eq(agentApiKeys.agentId, agentId)))
          .get();
        if (!row) throw notFound('Agent key');
        if (row.revokedAt) return toAgentKey(row);
        const at = isoNow(ctx);
        const updated = tx.update(agentApiKeys).set({ revokedAt: at }).where(eq(agentApiKeys.id, keyId)).returning().get();
        // Cleared inside the transaction: no request can be let in by the cache once revoke returns.
        verified.forgetAll();
        recordActivity(tx, at, actor, {
          companyId: agent.companyId,
          action: 'agent_key.revoked',
          entityType: 'agent',
          entityId: agentId,
          summary: `API key ${row.prefix}… of agent "${agent.name}" revoked`,
          details: { keyId },
        });
        return toAgentKey(updated);
      });
    },

    /** Resolves a presented key: unknown, revoked, or held by a terminated agent → null. */
    authenticate(key: string): KeyIdentity | null {
      const hash = hashKey(key);
      const now = ctx.clock.now().getTime();
      const hit = verified.get(hash, now);
      if (hit) return hit;
      const row = keyByHash.get({ hash });
      // Refusals are not cached: a wrong key costs the query every time, as before.
      if (!row || row.status === 'terminated') return null;
      const identity = { keyId: row.keyId, agentId: row.agentId, companyId: row.companyId };
      verified.set(hash, identity, now);
      return identity;
    },

    /** Records use at most once a minute per key, so reads do not turn into constant writes. */
    touch(keyId: string): void {
      const at = ctx.clock.now();
      const last = touched.get(keyId);
      if (last !== undefined && at.getTime() - last < 60_000 && at.getTime() >= last) return;
      const row = ctx.db.select({ last: agentApiKeys.lastUsedAt }).from(agentApiKeys).where(eq(agentApiKeys.id, keyId)).get();
      if (row?.last && at.getTime() - Date.parse(row.last) < 60_000) {
        touched.set(keyId, Date.parse(row.last));
        return;
      }
      ctx.db.update(agentApiKeys).set({ lastUsedAt: at.toISOString() }).where(eq(agentApiKeys.id, keyId)).run();
      if (touched.size >= 10_000) touched.clear();
      touched.set(keyId, at.getTime());
    },
  };
}

export type AgentKeysService = ReturnType<typeof createAgentKeysService>;
