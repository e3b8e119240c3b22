import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { keyset, type KeysetPage, type KeysetQuery } from '../db/keyset.js';
import type { Actor } from '../kernel/actor.js';
import { inTransaction, isoNow, type CoreContext } from '../context.js';
import { assertBoard } from '../kernel/access.js';
import { conflict, notFound } from '../kernel/errors.js';
import { validationError } from '../kernel/error-contract.js';
import { recordActivity } from '../activity/service.js';
import { assertCompany } from '../companies/service.js';
import { newId } from '../kernel/ids.js';
import { normalizeAllowlistValue } from './contact.js';
import { requireOutbox } from './outboxes.js';
import { crmAllowlistEntries, type CrmChannel } from './schema.js';
import type { AllowlistEntry, CreateAllowlistEntryInput } from './contract.js';
import { toAllowlistEntry } from './present.js';

const KIND_HINT = {
  address: 'an e-mail address',
  domain: 'a domain (example.com) or a subdomain wildcard (*.example.com)',
  phone: 'a phone number in E.164 form (+15551234567)',
  handle: 'a handle (letters, digits, . _ : -)',
} as const;

/** Who may be contacted (default deny). Read by the company; written by the board only. */
export function createAllowlistService(ctx: CoreContext) {
  return {
    /** Oldest first (created, then written; see outboxOrder), one keyset page at a time. */
    list(actor: Actor, companyId: string, query: { channel?: CrmChannel | undefined; outboxId?: string | undefined }, page: KeysetQuery): KeysetPage<AllowlistEntry> {
      assertCompany(ctx.db, actor, companyId);
      const filters: (SQL | undefined)[] = [eq(crmAllowlistEntries.companyId, companyId)];
      if (query.channel) filters.push(eq(crmAllowlistEntries.channel, query.channel));
      if (query.outboxId) filters.push(eq(crmAllowlistEntries.outboxId, query.outboxId));
      return keyset(crmAllowlistEntries, crmAllowlistEntries.createdAt, 'asc').pageOf(ctx.db, and(...filters), page, toAllowlistEntry);
    },

    create(actor: Actor, companyId: string, input: CreateAllowlistEntryInput): AllowlistEntry {
      assertBoard(actor, 'change the CRM allowlist');
      const value = normalizeAllowlistValue(input.kind, input.value);
      if (value === null) throw validationError([{ location: 'body', path: 'body.value', message: `must be ${KIND_HINT[input.kind]}` }]);
      return inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const channel = input.channel ?? null;
        const outboxId = input.outboxId ?? null;
        if (outboxId) requireOutbox(tx, companyId, outboxId);
        const same = tx
          .select({ id: crmAllowlistEntries.id })
          .from(crmAllowlistEntries)
          .where(
            and(
              eq(crmAllowlistEntries.companyId, companyId),
              eq(crmAllowlistEntries.kind, input.kind),
              eq(crmAllowlistEntries.value, value),
              channel ? eq(crmAllowlistEntries.channel, channel) : isNull(crmAllowlistEntries.channel),
              outboxId ? eq(crmAllowlistEntries.outboxId, outboxId) : isNull(crmAllowlistEntries.outboxId),
            ),
          )
          .get();
        if (same) throw conflict('duplicate_allowlist_entry', `${value} is already on the allowlist with this scope`, { id: same.id });
        const at = isoNow(ctx);
        const row = tx
          .insert(crmAllowlistEntries)
          .values({ id: newId(), companyId, channel, outboxId, kind: input.kind, value, note: input.note ?? null, createdAt: at })
          .returning()
          .get();
        recordActivity(tx, at, actor, {
          companyId,
          action: 'crm.allowlist.added',
          entityType: 'crm_allowlist_entry',
          entityId: row.id,
          summary: `Allowlist: ${row.kind} added`,
          details: { kind: row.kind, channel, outboxId },
        });
        return toAllowlistEntry(row);
      });
    },

    remove(actor: Actor, companyId: string, entryId: string): void {
      assertBoard(actor, 'change the CRM allowlist');
      inTransaction(ctx, (tx) => {
        assertCompany(tx, actor, companyId);
        const row = tx
          .select()
          .from(crmAllowlistEntries)
          .where(and(eq(crmAllowlistEntries.id, entryId), eq(crmAllowlistEntries.companyId, companyId)))
          .get();
        if (!row) throw notFound('Allowlist entry');
        tx.delete(crmAllowlistEntries).where(eq(crmAllowlistEntries.id, row.id)).run();
        recordActivity(tx, isoNow(ctx), actor, {
          companyId,
          action: 'crm.allowlist.removed',
          entityType: 'crm_allowlist_entry',
          entityId: row.id,
          summary: `Allowlist: ${row.kind} removed`,
          details: { kind: row.kind, channel: row.channel, outboxId: row.outboxId },
        });
      });
    },
  };
}
