import path from 'node:path';
import type { Clock } from './kernel/clock.js';
import type Database from 'better-sqlite3';
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

interface TopLevelRunner {
  tx: Tx;
  immediate: <T>(body: (tx: Tx) => T, tx: Tx) => T;
  /** Told after each top-level commit (the background checkpointer, the search indexer). */
  observers: Array<() => void>;
}
const runners = new WeakMap<Db, TopLevelRunner>();
/** The connection drizzle runs on (its `$client`: the statement-caching client of db/connection.ts). */
const clientOf = (db: Db): Database.Database => (db as Db & { $client: Database.Database }).$client;

/**
 * What runs every top-level transaction of a database: one drizzle transaction handle and one
 * better-sqlite3 transaction function, both made once. drizzle builds a new handle (with a query
 * builder per table) and better-sqlite3 a new wrapper for every `db.transaction` call, about a
 * tenth of a checkout's CPU (bench/README.md, issue 17). Sharing them is safe because a top-level
 * transaction is synchronous: no two are ever open on the connection at once.
 */
function runnerFor(db: Db): TopLevelRunner {
  let runner = runners.get(db);
  if (!runner) {
    const tx = db.transaction((t) => t, { behavior: 'deferred' });
    const run = clientOf(db).transaction(<T>(body: (tx: Tx) => T, t: Tx): T => body(t));
    runner = { tx, immediate: (body, t) => run.immediate(body, t) as ReturnType<typeof body>, observers: [] };
    runners.set(db, runner);
  }
  return runner;
}

/** Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so no upgrade deadlocks. */
export function inTransaction<T>(ctx: Pick<CoreContext, 'db' | 'events' | 'clock'> & Partial<Pick<CoreContext, 'wakes'>>, fn: (tx: Tx) => T): T {
  let queue: PendingEvent[] = [];
  let woke = false;
  const body = (tx: Tx): T => {
    queue = [];
    pendingEvents.set(tx, queue);
    wokenIn.delete(tx);
    try {
      const out = fn(tx);
      woke = wokenIn.has(tx);
      return out;
    } finally {
      pendingEvents.delete(tx);
    }
  };
  // Nested in an open transaction: a savepoint on a handle of its own, as drizzle makes it.
  const result = clientOf(ctx.db).inTransaction ? ctx.db.transaction(body, { behavior: 'immediate' }) : runTopLevel(ctx.db, body);
  const at = ctx.clock.now().toISOString();
  for (const e of queue) ctx.events.publish(e.companyId, e.type, e.data, at);
  if (woke) ctx.wakes?.notify();
  return result;
}

function runTopLevel<T>(db: Db, body: (tx: Tx) => T): T {
  const runner = runnerFor(db);
  const result = runner.immediate(body, runner.tx);
  for (const observer of runner.observers) observer();
  return result;
}

/**
 * Calls `observer` after every top-level `inTransaction` of `db` commits; returns the way to stop.
 * Observers only schedule work (a checkpoint, indexing): they run inside the caller's request.
 */
export function observeCommits(db: Db, observer: () => void): () => void {
  const { observers } = runnerFor(db);
  observers.push(observer);
  return () => {
    const at = observers.indexOf(observer);
    if (at >= 0) observers.splice(at, 1);
  };
}

export const isoNow = (ctx: Pick<CoreContext, 'clock'>): string => ctx.clock.now().toISOString();
