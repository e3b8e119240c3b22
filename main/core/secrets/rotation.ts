import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/connection.js';
import type { Logger } from '../kernel/logger.js';
import { ServiceError } from '../kernel/errors.js';
import { masterKeyState, secretVersions } from './schema.js';
import { KEY_BYTES, type MasterKeyProvider } from './master-key.js';
import { open, seal, versionAad } from './crypto.js';
import { KEY_STATE_ID, readKeyState, reconcileMasterKey, sealCanary, type ActiveKey } from './keyring.js';

/** The points after which a rotation may be cut short; tests stop there to prove nothing is lost. */
export type RotationStep = 'pending-saved' | 'reencrypted' | 'promoted' | 'pending-cleared';

export interface RotationOptions {
  logger: Logger;
  now: Date;
  /** Called after each step; throwing from it simulates a crash at that point. */
  afterStep?: (step: RotationStep) => void | Promise<void>;
}

export type RotationResult =
  | { rotated: false; reason: string }
  | { rotated: true; fromGeneration: number; toGeneration: number; versions: number };

/**
 * Step (b): re-encrypts every version (deleted secrets' too) and the canary under `next`, in one
 * transaction. Any version that does not open aborts the whole transaction, naming the row (never
 * a value): the database then still says the old key, and the next start discards the pending one.
 */
export function reencryptAll(db: Db, from: ActiveKey, next: Buffer, now: Date): number {
  return db.transaction(
    (tx) => {
      const state = readKeyState(tx);
      if (!state || state.generation !== from.generation) {
        throw new ServiceError(409, 'master_key_changed', 'The master key state changed while rotating; run the rotation again');
      }
      const generation = from.generation + 1;
      const rows = tx.select().from(secretVersions).all();
      for (const row of rows) {
        const aad = versionAad(row.secretId, row.version);
        let plain: Buffer;
        try {
          plain = open(from.key, row, aad);
        } catch {
          throw new ServiceError(500, 'secret_undecryptable', `Version ${row.version} of secret ${row.secretId} does not open with the current master key; nothing was rotated`);
        }
        const sealed = seal(next, plain, aad);
        plain.fill(0);
        tx.update(secretVersions)
          .set({ iv: sealed.iv, ciphertext: sealed.ciphertext, authTag: sealed.authTag, keyGeneration: generation })
          .where(eq(secretVersions.id, row.id))
          .run();
      }
      tx.update(masterKeyState)
        .set({ generation, ...sealCanary(next, generation), rotatedAt: now.toISOString() })
        .where(eq(masterKeyState.id, KEY_STATE_ID))
        .run();
      return rows.length;
    },
    { behavior: 'immediate' },
  );
}

/**
 * Rotates the master key. Run it while no server uses the home (the CLI holds an exclusive lock).
 *   (0) reconcile: finish or discard what an earlier interrupted rotation left;
 *   (a) save a new random key as the store's *pending* key;
 *   (b) one transaction re-encrypts every version and the canary under it, generation + 1;
 *   (c) promote the pending key to current;  (d) clear the pending key.
 * Cut short anywhere, one of the two stored keys opens the canary and every version, and the next
 * start (or rotation) completes or discards the rotation (keyring.ts, reconcileMasterKey).
 */
export async function rotateMasterKey(db: Db, provider: MasterKeyProvider, options: RotationOptions): Promise<RotationResult> {
  const step = async (s: RotationStep) => options.afterStep?.(s);
  const active = await reconcileMasterKey(db, provider, options.logger);
  if (!active) return { rotated: false, reason: 'No secret has been stored in this data home yet; there is nothing to re-encrypt.' };
  const next = randomBytes(KEY_BYTES);
  await provider.setPendingKey(next);
  await step('pending-saved');
  const versions = reencryptAll(db, active, next, options.now);
  await step('reencrypted');
  await provider.replaceKey(next);
  await step('promoted');
  await provider.clearPendingKey();
  await step('pending-cleared');
  options.logger.info('master key rotated', { generation: active.generation + 1, versions });
  return { rotated: true, fromGeneration: active.generation, toGeneration: active.generation + 1, versions };
}
