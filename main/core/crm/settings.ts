import { eq } from 'drizzle-orm';
import type { Queryable } from '../context.js';
import { instanceSettings } from '../heartbeat/schema.js';

export const FORCE_DRY_RUN_KEY = 'crm.forceDryRun';

/**
 * The global switch that turns every CRM send into a dry run. Default ON: a fresh install (and
 * every development and test home) sends nothing real until the board turns it off on purpose.
 */
export const FORCE_DRY_RUN_DEFAULT = true;

export function readForceDryRun(db: Queryable): boolean {
  const row = db.select({ value: instanceSettings.value }).from(instanceSettings).where(eq(instanceSettings.key, FORCE_DRY_RUN_KEY)).get();
  return typeof row?.value === 'boolean' ? row.value : FORCE_DRY_RUN_DEFAULT;
}

export function writeForceDryRun(tx: Queryable, value: boolean, at: string): void {
  tx.insert(instanceSettings)
    .values({ key: FORCE_DRY_RUN_KEY, value, updatedAt: at })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value, updatedAt: at } })
    .run();
}
