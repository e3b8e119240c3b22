import { and, eq, isNull } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import type { Actor } from '../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext, type Queryable } from '../context.js';
import { assertBoard } from '../kernel/access.js';
import { notFound } from '../kernel/errors.js';
import { validationError } from '../kernel/error-contract.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { assertSecretUri } from '../secrets/refs.js';
import { newId } from '../kernel/ids.js';
import { channelAdapters } from './channels/index.js';
import { crmOutboxes, type CrmChannel, type CrmOutboxRow } from './schema.js';
import type { CreateOutboxInput, Outbox, UpdateOutboxInput } from './contract.js';
import { toOutbox } from './present.js';
import type { ActivityKind } from '../kernel/events.js';

export function requireOutbox(db: Queryable, companyId: string, outboxId: string): CrmOutboxRow {
  const row = db
    .select()
    .from(crmOutboxes)
    .where(and(eq(crmOutboxes.id, outboxId), eq(crmOutboxes.companyId, companyId), isNull(crmOutboxes.deletedAt)))
    .get();
  if (!row) throw notFound('Outbox');
  return row;
}

/**
 * Config checked by the channel's own schema (stored with its defaults) and the secret reference by
 * the secrets module (shape + a live secret of this company). The secret's value is not read here:
 * it is resolved only when a message is sent.
 */
function checkOutbox(db: Queryable, companyId: string, channel: CrmChannel, config: Record<string, unknown>, secretRef: string | null): Record<string, unknown> {
  const adapter = channelAdapters[channel];
  const parsed = adapter.configSchema.safeParse(config);
  if (!parsed.success) {
    throw validationError(parsed.error.issues.map((i) => ({ location: 'body', path: ['body.config', ...i.path.map(String)].join('.'), message: i.message })));
  }
  if (secretRef === null && adapter.secret === 'required') {
    throw validationError([{ location: 'body', path: 'body.secretRef', message: `is required for ${channel} (the API token)` }]);
  }
  const needed = secretRef === null ? adapter.secretNeededFor?.(parsed.data) : null;
  if (needed) throw validationError([{ location: 'body', path: 'body.secretRef', message: needed }]);
  if (secretRef !== null) assertSecretUri(db, companyId, secretRef, 'body.secretRef');
  return parsed.data;
}

/**
 * The order outboxes are listed in, and their quota rows with them: creation, ties by rowid. An id
 * is a UUIDv7 minted when its row is inserted (kernel/ids.ts), so among rows created in the same
 * millisecond the rowid orders them as their ids did.
 */
export const outboxOrder = () => keyset(crmOutboxes, crmOutboxes.createdAt, 'asc');

/** Outboxes: read by the company's agents and the board; written by the board only (they carry credentials). */
export function createOutboxesService(ctx: CoreContext) {
  function record(tx: Queryable, at: string, actor: Actor, row: CrmOutboxRow, action: ActivityKind, summary: string): void {
    recordActivity(tx, at, actor, { companyId: row.companyId, action, entityType: 'crm_outbox', entityId: row.id, summary, details: { channel: row.channel } });
  }

  return {
    /** Oldest first (created, then written), one keyset page at a time. */
    list(actor: Actor, companyId: string, page: KeysetQuery): KeysetPage<Outbox> {
      assertCompany(ctx.db, actor, companyId);
      return outboxOrder().pageOf(ctx.db, and(eq(crmOutboxes.companyId, companyId), isNull(crmOutboxes.deletedAt)), page, toOutbox);
    },

    create(actor: Actor, companyId: string, input: CreateOutboxInput): Outbox {
      assertBoard(actor, 'create outboxes');
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const secretRef = input.secretRef ?? null;
        const config = checkOutbox(tx, companyId, input.channel, input.config ?? {}, secretRef);
        const at = isoNow(ctx);
        const row = tx
          .insert(crmOutboxes)
          .values({
            id: newId(),
            companyId,
            name: input.name ?? input.channel,
            channel: input.channel,
            niche: input.niche ?? null,
            secretRef,
            config,
            dailyCap: input.dailyCap ?? null,
            createdAt: at,
            updatedAt: at,
          })
          .returning()
          .get();
        record(tx, at, actor, row, 'crm.outbox.created', `Outbox "${row.name}" (${row.channel}) created`);
        return toOutbox(row);
      });
    },

    update(actor: Actor, companyId: string, outboxId: string, input: UpdateOutboxInput): Outbox {
      assertBoard(actor, 'change outboxes');
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requireOutbox(tx, companyId, outboxId);
        const secretRef = input.secretRef === undefined ? row.secretRef : input.secretRef;
        const config = checkOutbox(tx, companyId, row.channel, input.config ?? row.config, secretRef);
        const at = isoNow(ctx);
        const next = tx
          .update(crmOutboxes)
          .set({
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.niche !== undefined ? { niche: input.niche } : {}),
            ...(input.dailyCap !== undefined ? { dailyCap: input.dailyCap } : {}),
            secretRef,
            config,
            updatedAt: at,
          })
          .where(eq(crmOutboxes.id, row.id))
          .returning()
          .get();
        record(tx, at, actor, next, 'crm.outbox.updated', `Outbox "${next.name}" updated`);
        return toOutbox(next);
      });
    },

    /** Soft delete: activities keep their outbox; no new send can use it. */
    remove(actor: Actor, companyId: string, outboxId: string): Outbox {
      assertBoard(actor, 'delete outboxes');
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = requireOutbox(tx, companyId, outboxId);
        const at = isoNow(ctx);
        const next = tx.update(crmOutboxes).set({ deletedAt: at, updatedAt: at }).where(eq(crmOutboxes.id, row.id)).returning().get();
        record(tx, at, actor, next, 'crm.outbox.deleted', `Outbox "${next.name}" deleted`);
        return toOutbox(next);
      });
    },
  };
}
