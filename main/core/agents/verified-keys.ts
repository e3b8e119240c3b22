import type { CoreContext } from '../context.js';

/** Who a verified agent key speaks for. */
export interface KeyIdentity {
  keyId: string;
  agentId: string;
  companyId: string;
}

/**
 * How long a verified key is trusted without asking the database again. Revoking a key and
 * terminating an agent forget every verified key at once (in this process); the bound covers
 * changes made to the file by another process (the CLI), which cannot reach this memory.
 */
export const VERIFIED_KEY_TTL_MS = 5_000;
/** Entries kept at most; a flood of distinct keys must not grow memory without bound. */
const MAX_ENTRIES = 10_000;

/**
 * Agent keys verified recently, by the key's SHA-256 (never the key). Verifying a key was a hash,
 * a join and, after the response, a read of its last use: on a one-row GET a third of the work
 * (issue 17). Only successes are kept: a wrong key costs its query every time, as before.
 */
export class VerifiedKeys {
  private readonly entries = new Map<string, { identity: KeyIdentity; until: number }>();

  get(hash: string, now: number): KeyIdentity | null {
    const hit = this.entries.get(hash);
    if (!hit) return null;
    if (hit.until > now) return hit.identity;
    this.entries.delete(hash);
    return null;
  }

  set(hash: string, identity: KeyIdentity, now: number): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(hash, { identity, until: now + VERIFIED_KEY_TTL_MS });
  }

  /** Called inside the transaction that revokes a key or terminates an agent. */
  forgetAll(): void {
    this.entries.clear();
  }
}

const perDatabase = new WeakMap<object, VerifiedKeys>();

/** The one cache of a core (shared by the keys and the agents service, which terminates agents). */
export function verifiedKeysOf(ctx: Pick<CoreContext, 'db'>): VerifiedKeys {
  let cache = perDatabase.get(ctx.db);
  if (!cache) perDatabase.set(ctx.db, (cache = new VerifiedKeys()));
  return cache;
}
