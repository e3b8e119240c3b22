import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection.js';
import { flushCommits, type Queryable } from '../context.js';
import type { Logger } from '../kernel/logger.js';
import { ServiceError } from '../kernel/errors.js';
import { masterKeyState } from './schema.js';
import type { MasterKeyProvider } from './master-key.js';
import { CANARY_PLAINTEXT, canaryAad, opens, seal } from './crypto.js';

/** master_key_state holds one row. */
export const KEY_STATE_ID = 1;

/** The key the data is sealed with, and its generation (stored on every version row). */
export interface ActiveKey {
  generation: number;
  key: Buffer;
}

export type KeyStateRow = typeof masterKeyState.$inferSelect;

export const readKeyState = (db: Queryable): KeyStateRow | undefined =>
  db.select().from(masterKeyState).where(eq(masterKeyState.id, KEY_STATE_ID)).get();

export const canaryOpens = (state: KeyStateRow, key: Buffer): boolean =>
  opens(key, { iv: state.canaryIv, ciphertext: state.canaryCiphertext, authTag: state.canaryAuthTag }, canaryAad(state.generation));

export function sealCanary(key: Buffer, generation: number): Pick<KeyStateRow, 'canaryIv' | 'canaryCiphertext' | 'canaryAuthTag'> {
  const s = seal(key, CANARY_PLAINTEXT, canaryAad(generation));
  return { canaryIv: s.iv, canaryCiphertext: s.ciphertext, canaryAuthTag: s.authTag };
}

/** A key store that fails (locked keychain, unreadable file) is a 503, named, never a bare 500. */
async function fromStore<T>(provider: MasterKeyProvider, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ServiceError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new ServiceError(503, 'master_key_unavailable', `Could not ${what} in ${provider.describe()}: ${reason}`);
  }
}

/**
 * Makes the key store agree with the database, at core start and before each rotation. The
 * canary in master_key_state tells which key the data is sealed with:
 * - the current key opens it: any pending key is debris of a rotation that never committed; drop it;
 * - only the pending key opens it: a rotation committed its re-encryption but did not promote the
 *   key; promote it now (steps c and d of rotation.ts);
 * - neither: refuse, rather than seal new secrets under a key that cannot open the old ones.
 * Returns null when no secret was ever stored (no state row): then no key is needed or touched.
 */
export async function reconcileMasterKey(db: Queryable, provider: MasterKeyProvider, logger: Logger): Promise<ActiveKey | null> {
  const state = readKeyState(db);
  if (!state) return null;
  const current = await fromStore(provider, 'read the master key', () => provider.readKey());
  const pending = await fromStore(provider, 'read the pending master key', () => provider.getPendingKey());
  if (current && canaryOpens(state, current)) {
    if (pending) {
      await fromStore(provider, 'clear the pending master key', () => provider.clearPendingKey());
      logger.warn('discarded a pending master key left by a rotation that did not complete; the current key is in use');
    }
    return { generation: state.generation, key: current };
  }
  if (pending && canaryOpens(state, pending)) {
    await fromStore(provider, 'promote the pending master key', () => provider.replaceKey(pending));
    await fromStore(provider, 'clear the pending master key', () => provider.clearPendingKey());
    logger.warn('finished an interrupted master-key rotation: the new key is now the current one', { generation: state.generation });
    return { generation: state.generation, key: pending };
  }
  throw new ServiceError(
    503,
    'master_key_mismatch',
    `The secrets in this data home are sealed with master key generation ${state.generation}, but ${provider.describe()} ` +
      `${current ? 'holds a different key' : 'holds no key'}${pending ? ' and its pending key does not fit either' : ''}. ` +
      'Headcount refuses to start rather than lose them: restore that key (or run where its key store is reachable).',
  );
}

export interface Keyring {
  readonly provider: MasterKeyProvider;
  /** Reconciles at core start and logs the store's warning. */
  start(): Promise<void>;
  /** The key to seal with; on the very first secret it creates the master key and its canary. */
  forWrite(): Promise<ActiveKey>;
  /** The key to open with, or null when this home never stored a secret. */
  forRead(): Promise<ActiveKey | null>;
  /** Inside a transaction: refuses when the stored generation moved since the key was loaded. */
  assertCurrent(tx: Queryable, active: ActiveKey, generation?: number): void;
}

export function createKeyring(db: Db, provider: MasterKeyProvider, logger: Logger): Keyring {
  let active: ActiveKey | null = null;
  let loading: Promise<ActiveKey | null> | null = null;

  async function firstKey(): Promise<ActiveKey> {
    if (readKeyState(db)) return (await reconcileMasterKey(db, provider, logger)) as ActiveKey;
    const key = await fromStore(provider, 'create the master key', () => provider.getOrCreateKey());
    // A transaction of its own, committed before the key is used (not a savepoint of a commit group).
    flushCommits(db);
    return db.transaction(
      (tx) => {
        const state = readKeyState(tx);
        if (!state) {
          tx.insert(masterKeyState).values({ id: KEY_STATE_ID, generation: 1, ...sealCanary(key, 1), rotatedAt: null }).run();
          return { generation: 1, key };
        }
        // Another process stored the first secret meanwhile; its key must be ours too.
        if (!canaryOpens(state, key)) throw new ServiceError(503, 'master_key_mismatch', `${provider.describe()} does not hold the key the secrets are sealed with`);
        return { generation: state.generation, key };
      },
      { behavior: 'immediate' },
    );
  }

  /** One load at a time: two first secrets racing must not create two different keys. */
  async function load(create: boolean): Promise<ActiveKey | null> {
    while (loading) await loading.catch(() => undefined);
    if (active || (!create && !readKeyState(db))) return active;
    loading = create ? firstKey() : reconcileMasterKey(db, provider, logger);
    try {
      active = await loading;
      return active;
    } finally {
      loading = null;
    }
  }

  return {
    provider,
    async start() {
      if (provider.warning) logger.warn(provider.warning, { keyProvider: provider.kind });
      active = await reconcileMasterKey(db, provider, logger);
    },
    forWrite: async () => (await load(true)) as ActiveKey,
    forRead: () => load(false),
    assertCurrent(tx, key, generation) {
      const stored = generation ?? readKeyState(tx)?.generation;
      if (stored === key.generation) return;
      // Forget the cached key: the next request reloads (and reconciles) from the store.
      active = null;
      throw new ServiceError(503, 'master_key_changed', 'The master key was rotated by another process; retry, or restart Headcount');
    },
  };
}
