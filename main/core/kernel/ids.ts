import { v7 } from 'uuid';

/**
 * Record ids are UUIDv7 (RFC 9562): a millisecond timestamp first, then random bits, increasing
 * within the process. Every table is keyed or indexed by id, and a random (v4) id lands on a random
 * page of each such index, so each write dirtied pages of its own; time-ordered ids are appended at
 * the end, where consecutive writes share pages (and a commit writes each page once). Ids stay
 * unguessable enough to be no worse than before, and no secret is ever an id.
 */
export const newId = (): string => v7();
