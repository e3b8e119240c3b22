import type { Actor } from './actor.js';
import { forbidden, notFound } from './errors.js';

/** Board-only actions: budgets, approvals, keys, company administration. */
export function assertBoard(actor: Actor, what: string): void {
  if (actor.kind !== 'board') throw forbidden(`Only the board may ${what}`, 'board_only');
}

/**
 * Company-scoped access. An agent asking about another company gets the same 404 as for a company
 * that does not exist, so ids of other companies cannot be probed.
 */
export function assertCompanyAccess(actor: Actor, companyId: string): void {
  if (actor.kind === 'agent' && actor.companyId !== companyId) throw notFound('Company');
}

/** Same rule for a record that belongs to a company: foreign records are "not found". */
export function assertRecordAccess(actor: Actor, recordCompanyId: string, entity: string): void {
  if (actor.kind === 'agent' && actor.companyId !== recordCompanyId) throw notFound(entity);
}
