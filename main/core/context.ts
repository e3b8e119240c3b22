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

/** Work that must wait for the transaction's commit (`afterCommit`), in order. */
const afterCommits = new WeakMap<object, Array<() => void>>();

/**
 * Runs `fn` once the open transaction `tx` has committed (with its group, if it joined one), and
 * never if it rolls back: for what acts outside the database on what the transaction wrote
 * (notifying listeners, cancelling runs, deleting a file).
 */
export function afterCommit(tx: Queryable, fn: () => void): void {
  const list = afterCommits.get(tx);
  if (!list) throw new Error('afterCommit must be called inside inTransaction');
  list.push(fn);
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
  /**
   * One entry per `inTransaction` body running now, innermost last: a transaction opened while one
   * runs is nested in it, and its announcements wait in that entry for the outermost to commit.
   */
  frames: Array<Array<() => void>>;
  /** Group commit is on for this connection (`groupCommits`). */
  grouping: boolean;
  /** The group open on the connection, if any. */
  group: CommitGroup | null;
  /** How many writes the last group committed: more than one means writers arrive together. */
  lastMembers: number;
  gather: GatherBounds;
  /** Told what no caller can be: a group that failed, or work after a group's commit that threw. */
  report: (what: string, err: unknown) => void;
  db: Db;
}

/**
 * Top-level transactions of consecutive turns of the event loop, committed together (`groupCommits`).
 * Each member ran in a savepoint of the group's transaction, so a member that failed left nothing
 * behind; what each member does once committed (its events, its wakes) waits in `after`.
 */
interface CommitGroup {
  after: Array<() => void>;
  /** What undoes, in memory, the effect of a member that was counted before the commit (`unlessCommitted`). */
  undo: Array<() => void>;
  /** Settles once the group has committed, or failed to: answers wait for it (`commitSettled`). */
  settled: Promise<void>;
  resolve: () => void;
  reject: (err: unknown) => void;
}

const runners = new WeakMap<Db, TopLevelRunner>();
/** Connections of this process with group commit on (one per core; tests run two cores at once). */
const grouping = new Set<TopLevelRunner>();
/** The connection drizzle runs on (its `$client`: the statement-caching client of db/connection.ts). */
const clientOf = (db: Db): Database.Database => (db as Db & { $client: Database.Database }).$client;

/**
 * What runs every top-level transaction of a database: one drizzle transaction handle and one
 * better-sqlite3 transaction function, both made once. drizzle builds a new handle (with a query
 * builder per table) and better-sqlite3 a new wrapper for every `db.transaction` call, about a
 * tenth of a checkout's CPU (bench/README.md, issue 17). Sharing them is safe because a top-level
 * transaction is synchronous: no two are ever open on the connection at once. The same function
 * opened inside the group's transaction runs as a savepoint (better-sqlite3 chooses by itself).
 */
function runnerFor(db: Db): TopLevelRunner {
  let runner = runners.get(db);
  if (!runner) {
    const tx = db.transaction((t) => t, { behavior: 'deferred' });
    const run = clientOf(db).transaction(<T>(body: (tx: Tx) => T, t: Tx): T => body(t));
    runner = {
      tx,
      immediate: (body, t) => run.immediate(body, t) as ReturnType<typeof body>,
      observers: [],
      frames: [],
      grouping: false,
      group: null,
      lastMembers: 0,
      gather: DEFAULT_GATHER,
      report: (_what, err) => {
        throw err;
      },
      db,
    };
    runners.set(db, runner);
  }
  return runner;
}

export interface TransactionOptions {
  /**
   * May share its commit with the other writes of this and the next turns of the event loop (`groupCommits`),
   * so `inTransaction` may return before the commit. Only for a write whose caller answers in the
   * same turn and acts outside the database only through `afterCommit` (the hot paths: an issue
   * created or changed, a comment, a checkout and its release, a cost event). Any other
   * transaction first commits the open group, then commits on its own before returning.
   */
  group?: boolean;
}

/** The options of a write that may join the open commit group (see `TransactionOptions.group`). */
export const GROUPED: TransactionOptions = Object.freeze({ group: true });

/** Runs `fn` in one IMMEDIATE transaction: the write lock is taken up front, so no upgrade deadlocks. */
export function inTransaction<T>(
  ctx: Pick<CoreContext, 'db' | 'events' | 'clock'> & Partial<Pick<CoreContext, 'wakes'>>,
  fn: (tx: Tx) => T,
  options: TransactionOptions = {},
): T {
  const runner = runnerFor(ctx.db);
  let queue: PendingEvent[] = [];
  let woke = false;
  let afters: Array<() => void> = [];
  // Announcements of transactions nested in this one: made with this one's, once it commits.
  let nested: Array<() => void> = [];
  const body = (tx: Tx): T => {
    queue = [];
    afters = [];
    nested = [];
    pendingEvents.set(tx, queue);
    afterCommits.set(tx, afters);
    wokenIn.delete(tx);
    runner.frames.push(nested);
    try {
      const out = fn(tx);
      woke = wokenIn.has(tx);
      return out;
    } finally {
      runner.frames.pop();
      pendingEvents.delete(tx);
      afterCommits.delete(tx);
    }
  };
  // Each step on its own: a listener that throws must not skip the wake or the work after commit.
  const announce = () => {
    let failure: { err: unknown } | undefined;
    const step = (fn: () => void) => {
      try {
        fn();
      } catch (err) {
        failure ??= { err };
      }
    };
    const at = ctx.clock.now().toISOString();
    for (const e of queue) step(() => ctx.events.publish(e.companyId, e.type, e.data, at));
    if (woke) step(() => ctx.wakes?.notify());
    for (const inner of nested) step(inner);
    for (const after of afters) step(after);
    if (failure) throw failure.err;
  };
  const sqlite = clientOf(ctx.db);
  const caller = runner.frames.at(-1);
  if (caller || (sqlite.inTransaction && !runner.group)) {
    // Nested in an open transaction: a savepoint on a handle of its own, as drizzle makes it.
    const result = ctx.db.transaction(body, { behavior: 'immediate' });
    if (caller) caller.push(announce);
    else announce();
    return result;
  }
  // Group commit needs its connection to be the only one of this process that writes: another
  // connection writing while a group holds SQLite's write lock would wait for it on this very
  // thread, which cannot end the turn. Two cores in one process (tests do that) commit one by one.
  if (!options.group || !runner.grouping || grouping.size > 1) {
    // (What runs after a group's commit may open the next group.)
    while (runner.group) flushCommits(ctx.db);
    const result = runner.immediate(body, runner.tx);
    announce();
    for (const observer of runner.observers) observer();
    return result;
  }
  const group = openGroup(runner, sqlite);
  const result = runner.immediate(body, runner.tx);
  group.after.push(announce);
  return result;
}

/**
 * Turns group commit on for `db`: the top-level transactions that ask for it (`GROUPED`) share one
 * COMMIT, made at the end of the turn of the event loop that opened the group, or while writers
 * arrive together once a turn brings no new member (`commitWhenGathered`, within `gather`). Consecutive requests
 * write the same pages (the activity table's last page, the newest entries of each index), and a
 * commit writes every page it changed to the WAL: committed together, they are written once.
 *
 * What a member's commit used to guarantee still holds when it matters: its events, wakes and
 * `afterCommit` work wait for the group's commit (none if the group fails), and the HTTP server holds every answer until
 * the group open when the answer is ready has committed (`commitSettled`), so no client is told of
 * a write, or shown one, that a crash could still take back. Call `stopGroupCommits` before closing.
 */
export function groupCommits(db: Db, report: (what: string, err: unknown) => void, gather: Partial<GatherBounds> = {}): void {
  const runner = runnerFor(db);
  // A second connection that groups: the first one's open group is committed now (see inTransaction).
  for (const other of grouping) flushCommits(other.db);
  runner.grouping = true;
  grouping.add(runner);
  runner.report = report;
  runner.gather = { ...DEFAULT_GATHER, ...gather };
}

function openGroup(runner: TopLevelRunner, sqlite: Database.Database): CommitGroup {
  if (runner.group && !sqlite.inTransaction) {
    // SQLite rolled the group back by itself (a full disk, an I/O error in a member): the members
    // before are lost, their answers get the error, and a new group starts.
    failGroup(runner, new Error('the transaction was rolled back by SQLite'));
  }
  if (runner.group) return runner.group;
  sqlite.prepare('BEGIN IMMEDIATE').run();
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const settled = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Nobody may be waiting (no answer was ready in that turn); a failure is reported to waiters only.
  settled.catch(() => {});
  const group: CommitGroup = { after: [], undo: [], settled, resolve, reject };
  runner.group = group;
  commitWhenGathered(runner, group, 0, performance.now());
  return group;
}

/**
 * How long a group may wait for more members (`commitWhenGathered`). Both are checked at the end of
 * each turn of the event loop, so a turn that runs long or brings many writes can pass them.
 */
export interface GatherBounds {
  maxMs: number;
  maxMembers: number;
}
const DEFAULT_GATHER: GatherBounds = Object.freeze({ maxMs: 1, maxMembers: 64 });

// While writers arrive together (this group or the last one has several members), a group stays
// open one more turn of the event loop as long as the last turn brought it a member. On a busy
// server the next requests arrive while one turn's are handled: gathered, they share one commit
// (it writes each page it changed once, and most pages are shared), where committing every turn
// left groups of whoever happened to arrive together. A lone writer (one agent, the board)
// commits at the end of its own turn, as if nothing were gathered, and waits for nothing.
function commitWhenGathered(runner: TopLevelRunner, group: CommitGroup, seen: number, openedAt: number): void {
  setImmediate(() => {
    if (runner.group !== group) return;
    const members = group.after.length;
    const { maxMs, maxMembers } = runner.gather;
    const together = members > 1 || runner.lastMembers > 1;
    if (together && members > seen && members < maxMembers && performance.now() - openedAt < maxMs) {
      commitWhenGathered(runner, group, members, openedAt);
      return;
    }
    flushCommits(runner.db);
  });
}

function failGroup(runner: TopLevelRunner, err: unknown): void {
  const group = runner.group;
  runner.group = null;
  if (!group) return;
  // Answers waiting on the group become errors; writes outside a request (a run's cost) have no
  // one to tell but the log.
  runner.report(`a commit group of ${group.after.length} write(s) failed; none of them was saved`, err);
  for (const undo of group.undo) {
    try {
      undo();
    } catch (undoErr) {
      runner.report('undoing a write of a failed commit group failed', undoErr);
    }
  }
  group.reject(err);
}

/**
 * Calls `undo` if the write just made on `db` is lost with its commit group: for what a caller
 * counted in memory once the write returned (a rate window), which must not count a write that
 * was never saved. Nothing happens when no group is open: the write has committed already.
 */
export function unlessCommitted(db: Db, undo: () => void): void {
  runners.get(db)?.group?.undo.push(undo);
}

/** Commits the open group of `db` and turns group commit off, before its connection closes. */
export function stopGroupCommits(db: Db): void {
  flushCommits(db);
  const runner = runners.get(db);
  if (!runner) return;
  runner.grouping = false;
  grouping.delete(runner);
}

/** Commits the open group of `db` now, if any (before closing, or a transaction that does not join it). */
export function flushCommits(db: Db): void {
  const runner = runners.get(db);
  const group = runner?.group;
  if (!runner || !group) return;
  const sqlite = clientOf(db);
  if (!sqlite.inTransaction) return failGroup(runner, new Error('the transaction was rolled back by SQLite'));
  try {
    sqlite.prepare('COMMIT').run();
  } catch (err) {
    try {
      if (sqlite.inTransaction) sqlite.prepare('ROLLBACK').run();
    } catch (rollbackErr) {
      // A connection stuck in a transaction it can neither commit nor roll back would take every
      // later write as a savepoint of it and lose them all without a word: closed instead, so
      // they fail loudly.
      runner.report('rolling back a failed commit group failed too; the database connection is closed', rollbackErr);
      sqlite.close();
    }
    failGroup(runner, err);
    return;
  }
  runner.group = null;
  runner.lastMembers = group.after.length;
  // Committed: every waiting answer is sent, whatever an event or an observer then does.
  group.resolve();
  for (const after of [...group.after, ...runner.observers]) {
    try {
      after();
    } catch (err) {
      runner.report('work after a commit failed', err);
    }
  }
}

/**
 * The open group's outcome, or null when none is open: an answer ready now may carry what the
 * group wrote, so it is sent once this settles, and replaced by an error if it rejects.
 */
export function commitSettled(db: Db): Promise<void> | null {
  return runners.get(db)?.group?.settled ?? null;
}

/**
 * Calls `observer` after every top-level `inTransaction` of `db` commits (once per group); returns
 * the way to stop. Observers only schedule work (a checkpoint, indexing): they run inside the
 * caller's request or the group's commit.
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
