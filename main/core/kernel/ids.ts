import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * Record ids are UUIDv7 (RFC 9562): a millisecond timestamp first, then random bits, increasing
 * within the process. Every table is keyed or indexed by id, and a random (v4) id lands on a random
 * page of each such index, so each write dirtied pages of its own; time-ordered ids are appended at
 * the end, where consecutive writes share pages (and a commit writes each page once). Ids stay
 * unguessable enough to be no worse than before, and no secret is ever an id.
 *
 * The random bytes come from a pool refilled 256 ids at a time (as Node's own `randomUUID` does):
 * `uuid` asks the system for 16 bytes per id, and that call was 3-5% of a write's CPU (issue 17).
 * Handing `uuid` the bytes means handing it the clock and sequence too, so the monotonic state it
 * keeps for itself is kept here, with the same rule (RFC 9562 §6.2, method 1).
 */
const pool = new Uint8Array(16 * 256);
let offset = pool.length;
let msecs = -Infinity;
let seq = 0;

export function newId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const random = pool.subarray(offset, offset + 16);
  offset += 16;
  const now = Date.now();
  if (now > msecs) {
    // A new millisecond: the counter starts at a random 31-bit value, leaving room to count up.
    msecs = now;
    seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
  } else {
    // The same millisecond (or the clock stepped back): count on; a full counter moves the time on.
    seq = (seq + 1) | 0;
    if (seq === 0) msecs++;
  }
  return v7({ random, msecs, seq });
}
