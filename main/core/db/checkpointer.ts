import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Logger } from '../kernel/logger.js';

/**
 * Folds the WAL back into the database file on a thread of its own.
 *
 * SQLite's automatic checkpoint runs inside the commit that crosses its threshold (1,000 pages of
 * WAL by default): that commit syncs the WAL, copies every page written since the last checkpoint
 * back into the file and syncs it, on the thread that serves the API. Here a worker thread with its
 * own connection runs a PASSIVE checkpoint every {@link COMMITS_PER_CHECKPOINT} commits, and at
 * most {@link QUIET_MS} after any commit not yet checkpointed (so the last commits of a burst are
 * folded back too).
 *
 * While the worker runs, the serving connection's own threshold is raised to
 * {@link BACKSTOP_PAGES}. A checkpoint that finds nothing written after it lets the next write
 * start the WAL over from its beginning; the worker's usually do, between bursts. A steady writer
 * can outrun them, though, and then only a checkpoint on the writer's own thread catches up: the
 * backstop keeps that rare, and small, since the worker has already copied and synced nearly
 * everything. At SQLite's 1,000 pages it ran every 60 or so commit groups of an issue update and
 * took 3-15 ms, about half of all commit time (bench/README.md, issue 17). A WAL file that grew
 * past {@link walSizeLimit} (a reader held the log longer than usual) is truncated back to
 * it when the log starts over. The limit sits above the backstop's own size, so the restarts of a
 * steady writer leave the file as it is and later frames overwrite it: shrinking it on every restart
 * cost the writer's thread 4-17 ms, and growing it again one allocation per append. If the worker
 * cannot start, dies or stops, the connection gets its own settings back and SQLite does all of it
 * as before.
 */
export interface Checkpointer {
  /** Called after each top-level commit (context.ts `observeCommits`). */
  noteCommit(): void;
  /** Checkpoints now and reports the result (tests, and a clean shutdown's last fold). */
  flush(): Promise<CheckpointReport | undefined>;
  /** Ends the worker. */
  stop(): Promise<void>;
}

export const COMMITS_PER_CHECKPOINT = 100;
/** The serving connection's own checkpoint threshold while the worker runs (32 MiB of 4 KiB pages). */
export const BACKSTOP_PAGES = 8000;
/**
 * A WAL that grew past this is truncated to it when it starts over: twice what the backstop lets it
 * reach (a frame is a page and its 24-byte header), so 66 MB with the default 4 KiB pages.
 */
export const walSizeLimit = (pageSize: number): number => 2 * BACKSTOP_PAGES * (pageSize + 24);
/** A commit not yet checkpointed is folded back at most this much later (timed from the first such commit, not pushed back by each). */
export const QUIET_MS = 250;

export interface CheckpointerOptions {
  nativeBinding?: string;
  logger: Logger;
  /** The connection that serves the API: its own checkpoints become a backstop while the worker runs. */
  serving?: Database.Database;
}

/** What one `PRAGMA wal_checkpoint(PASSIVE)` reports: frames in the WAL and frames copied back. */
export interface CheckpointReport {
  busy: number;
  log: number;
  checkpointed: number;
}

interface WorkerData {
  /** better-sqlite3's entry, resolved here: the worker's code has no module of its own to resolve from. */
  driver: string;
  file: string;
  nativeBinding?: string;
}

/**
 * The worker thread's code, run as a CommonJS script (`eval`) rather than loaded from a file, so
 * that it runs the same from the TypeScript sources under test, the built modules and the CLI's
 * single-file bundle. It is a string on purpose: a bundler rewrites `require` in code it bundles
 * (esbuild turns it into a helper of the bundle's own scope), and a function's source text would
 * carry that rewrite into a thread where the helper does not exist.
 */
const CHECKPOINT_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Driver = require(workerData.driver);
const db = new Driver(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
// The connection that checkpoints decides whether the checkpoint syncs: NORMAL syncs the WAL
// before copying and the file after, the durability the main connection promises.
db.pragma('synchronous = NORMAL');
// PASSIVE never waits for, nor blocks, the writer on the main thread: it copies what it can now.
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
parentPort.on('message', (message) => {
  if (message === 'checkpoint') {
    parentPort.postMessage({ type: 'checkpointed', report: checkpoint.get() });
  } else if (message === 'close') {
    db.close();
    parentPort.close();
  }
});
`;

export function startCheckpointer(file: string, options: CheckpointerOptions): Checkpointer {
  const data: WorkerData = {
    driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    file,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  };
  const worker = new Worker(CHECKPOINT_THREAD, { eval: true, workerData: data });
  // The app exits when its server closes, not when this thread is idle.
  worker.unref();

  let alive = true;
  let commits = 0;
  let quiet: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let waiters: Array<(report: CheckpointReport | undefined) => void> = [];
  let stopping: Promise<void> | undefined;

  const settle = (report: CheckpointReport | undefined): void => {
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve(report);
  };
  const request = (): void => {
    commits = 0;
    if (quiet) clearTimeout(quiet);
    quiet = undefined;
    if (!alive) return;
    // One checkpoint at a time; commits made while one runs are folded by the next.
    if (running) {
      again = true;
      return;
    }
    running = true;
    worker.postMessage('checkpoint');
  };

  worker.on('message', (message: { type: 'checkpointed'; report: CheckpointReport }) => {
    running = false;
    if (again) {
      again = false;
      request();
    } else {
      settle(message.report);
    }
  });
  // The serving connection's own settings, given back as they were when the worker stops.
  const serving = options.serving;
  const own = serving
    ? { autocheckpoint: Number(serving.pragma('wal_autocheckpoint', { simple: true })), sizeLimit: Number(serving.pragma('journal_size_limit', { simple: true })) }
    : null;
  const setServing = (autocheckpoint: number, sizeLimit: number): void => {
    if (!serving?.open) return;
    try {
      serving.pragma(`wal_autocheckpoint = ${autocheckpoint}`);
      serving.pragma(`journal_size_limit = ${sizeLimit}`);
    } catch (err) {
      // Called from the worker's exit and error handlers: a throw there would end the process.
      options.logger.warn('could not change the checkpoint settings of the serving connection', { error: String(err) });
    }
  };
  const giveBack = (): void => {
    if (own) setServing(own.autocheckpoint, own.sizeLimit);
  };
  if (serving?.open) setServing(BACKSTOP_PAGES, walSizeLimit(Number(serving.pragma('page_size', { simple: true }))));
  const fail = (err: unknown): void => {
    if (!alive) return;
    alive = false;
    running = false;
    giveBack();
    settle(undefined);
    if (!stopping) options.logger.warn('the background checkpointer stopped; SQLite checkpoints in the commits alone again', { error: String(err) });
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(`exit ${code}`));

  return {
    noteCommit() {
      if (!alive) return;
      if (++commits >= COMMITS_PER_CHECKPOINT) return request();
      if (!quiet) {
        quiet = setTimeout(request, QUIET_MS);
        quiet.unref();
      }
    },
    flush() {
      if (!alive) return Promise.resolve(undefined);
      const settled = new Promise<CheckpointReport | undefined>((resolve) => waiters.push(resolve));
      request();
      return settled;
    },
    stop() {
      stopping ??= (async () => {
        if (quiet) clearTimeout(quiet);
        quiet = undefined;
        if (!alive) return;
        giveBack();
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
        // Unreferenced, the thread would not keep the process alive while it closes: a caller
        // awaiting this at the end of a script would see Node exit first (code 13).
        worker.ref();
        worker.postMessage('close');
        await exited;
      })();
      return stopping;
    },
  };
}
