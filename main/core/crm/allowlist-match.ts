import { and, eq, isNull, or } from 'drizzle-orm';
import type { Queryable } from '../context.js';
import { entryAdmits, type Contact } from './contact.js';
import { crmAllowlistEntries, type CrmAllowlistEntryRow, type CrmOutboxRow } from './schema.js';

/**
 * The entry that admits `contact` for this outbox, or null. Default deny: an empty allowlist admits
 * no one. Entries may be narrowed to a channel and to one outbox.
 */
export function allowlistEntryFor(db: Queryable, outbox: CrmOutboxRow, contact: Contact): CrmAllowlistEntryRow | null {
  const candidates = db
    .select()
    .from(crmAllowlistEntries)
    .where(
      and(
        eq(crmAllowlistEntries.companyId, outbox.companyId),
        or(isNull(crmAllowlistEntries.channel), eq(crmAllowlistEntries.channel, outbox.channel)),
        or(isNull(crmAllowlistEntries.outboxId), eq(crmAllowlistEntries.outboxId, outbox.id)),
      ),
    )
    .all();
  return candidates.find((e) => entryAdmits(e, contact)) ?? null;
}
