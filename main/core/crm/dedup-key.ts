import { createHash } from 'node:crypto';
import { canonicalJson } from '../kernel/canonical-json.js';

/**
 * The dedup key of an outbound message (spec 4.8 `clientDedupKey`): lower-case hex sha256 of the
 * UTF-8 canonical JSON (object keys sorted at every level, no spaces) of the array
 * `[actor, contact, kind, payload]`, where actor is the sending agent's id, `board` or `system`,
 * contact is the normalized recipient and payload the request's payload as sent.
 * A client computes the same key to make its retries safe.
 */
export function computeDedupKey(actor: string, contact: string, kind: string, payload: Record<string, unknown>): string {
  return createHash('sha256').update(canonicalJson([actor, contact, kind, payload]), 'utf8').digest('hex');
}
