import path from 'node:path';
import type { Clock } from './kernel/clock.js';
import type { Db } from './db/connection.js';
import type { Logger } from './kernel/logger.js';
import type { AdapterRegistry } from '../../adapters/registry.js';
import type { EventBus } from './events/bus.js';
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
  runs: RunLookup;
  /** Where the master key of secrets lives (secrets/master-key.ts). */
  keyProvider: MasterKeyProvider;
}

interface PendingEvent {
  companyId: string;
  type: string;
  data: Record<string, unknown>;
}

/** Events raised inside a transaction, published only once it commits. */
const pendingEvents = new WeakMap<object, PendingEvent[]>();

/** Queues an event on the open transaction `tx`; it reaches the stream only if `tx` commits. */
export function emitOnCommit(tx: Queryable, event: PendingEvent): void {
  const queue = pendingEvents.get(tx);
  if (!queue) throw new Error('emitOnCommit must be called inside inTransaction');
  queue.push(event);
}

/** Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so no upgrade deadlocks. */
export function inTransaction<T>(ctx: Pick<CoreContext, 'db' | 'events' | 'clock'>, fn: (tx: Tx) => T): T {
  let queue: PendingEvent[] = [];
  const result = ctx.db.transaction(
    (tx) => {
      queue = [];
      pendingEvents.set(tx, queue);
      return fn(tx);
    },
    { behavior: 'immediate' },
  );
  const at = ctx.clock.now().toISOString();
  for (const e of queue) ctx.events.publish(e.companyId, e.type, e.data, at);
  return result;
}

export const isoNow = (ctx: Pick<CoreContext, 'clock'>): string => ctx.clock.now().toISOString();
