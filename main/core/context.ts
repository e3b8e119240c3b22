import path from 'node:path';
import type { Clock } from './kernel/clock.js';
import type { Db } from './db/connection.js';
import type { Logger } from './kernel/logger.js';
import type { Signal } from './kernel/signal.js';
import type { AdapterRegistry } from '../../adapters/registry.js';
import type { EventBus } from './events/bus.js';
import type { ActivityKind, CompanyEventBody } from './kernel/events.js';
import type { RunLookup } from './heartbeat/run-lookup.js';
import type { MasterKeyProvider } from './secrets/master-key.js';

/** A transaction handle, usable wherever the database handle is. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Queryable = Db | Tx;

export interface HomePaths {
  home: string;
  database: string;
  attachments: string;
  runs: string;
  backups: string;
}

export function homePaths(home: string): HomePaths {
  return {
    home,
    database: path.join(home, 'service.db'),
    attachments: path.join(home, 'attachments'),
    runs: path.join(home, 'runs'),
    backups: path.join(home, 'backups'),
  };
}

/** What every area service is built from. */
export interface CoreContext {
  db: Db;
  clock: Clock;
  logger: Logger;
  paths: HomePaths;
  adapters: AdapterRegistry;
  events: EventBus;
  /** Notified after a transaction that stored a wake request commits (see `wakeOnCommit`). */
  wakes: Signal;
  runs: RunLookup;
  /** Where the master key of secrets lives (secrets/master-key.ts). */
  keyProvider: MasterKeyProvider;
}

/** Events raised in a transaction are activity events (activity/service.ts). */
type PendingEvent = { companyId: string } & Extract<CompanyEventBody, { type: ActivityKind }>;

/** Events raised inside a transaction, published only once it commits. */
const pendingEvents = new WeakMap<object, PendingEvent[]>();

/** Queues an event on the open transaction `tx`; it reaches the stream only if `tx` commits. */
export function emitOnCommit(tx: Queryable, event: PendingEvent): void {
  const queue = pendingEvents.get(tx);
  if (!queue) throw new Error('emitOnCommit must be called inside inTransaction');
  queue.push(event);
}

/** Transactions that stored a wake request: the engine is told once they commit. */
const wokenIn = new WeakSet<object>();

/**
 * Marks the open transaction `tx` as one that stored a wake request. Outside `inTransaction` (a
 * migration, an import) it does nothing: the engine's tick finds the wake anyway.
 */
export function wakeOnCommit(tx: Queryable): void {
  if (pendingEvents.has(tx)) wokenIn.add(tx);
}

/** Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so no upgrade deadlocks. */
export function inTransaction<T>(ctx: Pick<CoreContext, 'db' | 'events' | 'clock'> & Partial<Pick<CoreContext, 'wakes'>>, fn: (tx: Tx) => T): T {
  let queue: PendingEvent[] = [];
  let woke = false;
  const result = ctx.db.transaction(
    (tx) => {
      queue = [];
      pendingEvents.set(tx, queue);
      const out = fn(tx);
      woke = wokenIn.has(tx);
      return out;
    },
    { behavior: 'immediate' },
  );
  const at = ctx.clock.now().toISOString();
  for (const e of queue) ctx.events.publish(e.companyId, e.type, e.data, at);
  if (woke) ctx.wakes?.notify();
  return result;
}

export const isoNow = (ctx: Pick<CoreContext, 'clock'>): string => ctx.clock.now().toISOString();
