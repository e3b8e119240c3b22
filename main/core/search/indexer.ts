import type Database from 'better-sqlite3';
import type { Logger } from '../kernel/logger.js';

/** Texts indexed per transaction when catching up in the background (an import can leave 100,000). */
export const INDEX_BATCH = 1000;
/** After a commit, pending texts are indexed this much later, together with what follows. */
export const INDEX_DELAY_MS = 100;

/**
 * Keeps the full-text index in step with the texts marked pending by the triggers of migration
 * 0017_search_deferred. FTS5 writes one index segment per transaction that touches it, so indexing
 * each text in the transaction that wrote it cost more than the rest of a new issue's insert
 * (issue 17). Texts are indexed together instead: in the background shortly after commits, and in
 * full before any search reads the index, so a search never misses a committed write.
 */
export interface SearchIndexer {
  /** Indexes every pending text now; returns how many. Throws what SQLite throws. */
  indexPending(): number;
  /** Before a search: indexes every pending text, or, if that fails, says so once and lets the search go on. */
  catchUp(): void;
  /** A transaction committed: index what it left, a little later. */
  schedule(): void;
  stop(): void;
}

export function createSearchIndexer(sqlite: Database.Database, logger: Pick<Logger, 'warn'>): SearchIndexer {
  const anyPending = sqlite.prepare('SELECT 1 FROM search_docs WHERE pending = 1 LIMIT 1').pluck();
  const pendingIds = sqlite.prepare<[number], number>('SELECT id FROM search_docs WHERE pending = 1 ORDER BY id LIMIT ?').pluck();
  // REPLACE: a text edited after it was indexed replaces its old entry under the same rowid.
  const indexIssues = sqlite.prepare(`INSERT OR REPLACE INTO search_fts (rowid, title, body)
    SELECT d.id, i.title, i.description FROM search_docs d JOIN issues i ON i.id = d.issue_id
    WHERE d.id IN (SELECT value FROM json_each(?)) AND d.comment_id IS NULL`);
  const indexComments = sqlite.prepare(`INSERT OR REPLACE INTO search_fts (rowid, title, body)
    SELECT d.id, '', c.body FROM search_docs d JOIN issue_comments c ON c.id = d.comment_id
    WHERE d.id IN (SELECT value FROM json_each(?))`);
  const clear = sqlite.prepare('UPDATE search_docs SET pending = 0 WHERE id IN (SELECT value FROM json_each(?))');
  // Nested in a caller's transaction, better-sqlite3 makes this a savepoint of it.
  const batch = sqlite.transaction((limit: number): number => {
    const ids = pendingIds.all(limit);
    if (ids.length === 0) return 0;
    const list = JSON.stringify(ids);
    indexIssues.run(list);
    indexComments.run(list);
    clear.run(list);
    return ids.length;
  });
  const runBatch = (limit: number): number => (sqlite.inTransaction ? batch(limit) : batch.immediate(limit));

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // A failure that lasts (a full disk, another process holding the write lock) is said once, not
  // at every commit; a success clears it.
  let failing = false;
  const failed = (err: unknown, what: string): void => {
    if (!failing) logger.warn(what, { message: err instanceof Error ? err.message : String(err) });
    failing = true;
  };

  const background = (): void => {
    timer = undefined;
    if (stopped || !sqlite.open) return;
    try {
      // One batch per turn of the event loop: requests are served between batches.
      if (anyPending.get() !== undefined && runBatch(INDEX_BATCH) === INDEX_BATCH) timer = setTimeout(background, 0);
      failing = false;
    } catch (err) {
      // The texts stay pending: the next commit or search indexes them.
      failed(err, 'could not update the search index; texts stay pending and are indexed later');
    }
    timer?.unref();
  };

  const indexPending = (): number => {
    if (anyPending.get() === undefined) return 0;
    let total = 0;
    let n: number;
    do {
      n = runBatch(INDEX_BATCH);
      total += n;
    } while (n === INDEX_BATCH);
    failing = false;
    return total;
  };

  return {
    indexPending,
    catchUp() {
      try {
        indexPending();
      } catch (err) {
        // A search still answers, from the index as it stands, rather than failing with it.
        failed(err, 'could not index pending texts before a search; it answered from the index as it stands');
      }
    },
    schedule() {
      if (timer || stopped) return;
      timer = setTimeout(background, INDEX_DELAY_MS);
      timer.unref();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
