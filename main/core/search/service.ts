import type Database from 'better-sqlite3';
import { observeCommits, type CoreContext } from '../context.js';
import { createSearchIndexer } from './indexer.js';
import type { Actor } from '../kernel/actor.js';
import { assertCompanyAccess } from '../kernel/access.js';
import { likeContains, MARK_END, MARK_START, snippetParts, toFtsQuery } from './query.js';
import type { SearchQuery, SearchResults } from './contract.js';

/** A title match weighs this many body matches (bm25 column weights, and the common-word score). */
const TITLE_WEIGHT = 8;
/** Matching texts read per issue wanted: an issue whose comments match often holds several. */
const DOCS_PER_ISSUE = 4;
/**
 * Newest matching texts read before ranking. A query matching more is "common": bm25 would have to
 * walk its whole match list (FTS5 counts every matching row for the IDF), so it is ranked among
 * these instead; a query matching fewer is ranked by bm25 over all of its matches.
 */
export const SEARCH_CANDIDATES = 200;
/** Agents and projects shown beside the issues. */
const NAME_HITS = 8;

interface DocHit {
  issue_id: string;
  comment_id: string | null;
  title_hl: string;
  snip: string;
}

interface IssueRow {
  id: string;
  identifier: string;
  title: string;
  status: string;
}

const marks = (text: string) => text.split(MARK_START).length - 1;
/** Relevance of a text among a common query's candidates: matches in the title weigh more, as in bm25. */
const commonScore = (d: DocHit) => TITLE_WEIGHT * marks(d.title_hl) + marks(d.snip);
/** "ACME-12": a readable identifier's number, for an indexed lookup. */
const IDENTIFIER = /^[\p{L}\p{N}]+-(\d{1,9})$/u;

/**
 * Finds a company's issues (titles, descriptions, comments; FTS5), agents and projects (by name).
 * Triggers mark every written text pending (migrations 0010_search_fts, 0017_search_deferred), so
 * every write path is covered without the services knowing about search; the indexer
 * (search/indexer.ts) indexes pending texts after commits and before every search.
 */
export function createSearchService(ctx: Pick<CoreContext, 'db' | 'logger'>) {
  // FTS5 functions (bm25, snippet, highlight) are plain SQL; drizzle's client underneath runs them.
  const sqlite = (ctx.db as typeof ctx.db & { $client: Database.Database }).$client;
  const indexer = createSearchIndexer(sqlite, ctx.logger);
  const unobserve = observeCommits(ctx.db, indexer.schedule);
  const columns = `d.issue_id, d.comment_id,
      highlight(search_fts, 0, '${MARK_START}', '${MARK_END}') AS title_hl,
      snippet(search_fts, 1, '${MARK_START}', '${MARK_END}', '…', 16) AS snip`;
  // FTS5 walks a match list in rowid order and stops at the LIMIT, so this costs the rows read,
  // not the rows matching: a word in half of 100,000 issues answers as fast as a rare one.
  const newestMatches = sqlite.prepare<[string, string, number], DocHit>(`
    SELECT ${columns}
    FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
    WHERE search_fts MATCH ? AND d.company_id = ?
    ORDER BY search_fts.rowid DESC
    LIMIT ?`);
  const ranked = sqlite.prepare<[string, string, number], DocHit>(`
    SELECT ${columns}
    FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
    WHERE search_fts MATCH ? AND d.company_id = ?
    ORDER BY bm25(search_fts, ${TITLE_WEIGHT}, 1)
    LIMIT ?`);

  /**
   * A query with few matches is ranked by bm25 over all of them. One with more than
   * SEARCH_CANDIDATES (a common word, a short prefix while typing) is ranked among its newest
   * matches by title and body hits, newest first on a tie: recent work is what the founder looks
   * for, and bm25 over every match took 40-150 ms at 100,000 issues (bench/README.md).
   */
  function rankedDocs(fts: string, companyId: string, wanted: number): DocHit[] {
    const newest = newestMatches.all(fts, companyId, SEARCH_CANDIDATES + 1);
    if (newest.length <= SEARCH_CANDIDATES) return ranked.all(fts, companyId, wanted);
    // Array.prototype.sort is stable: equal scores keep the newest-first order.
    return newest.sort((a, b) => commonScore(b) - commonScore(a)).slice(0, wanted);
  }
  const issue = sqlite.prepare<[string], IssueRow>('SELECT id, identifier, title, status FROM issues WHERE id = ? AND deleted_at IS NULL');
  const agents = sqlite.prepare<[string, string, number], SearchResults['agents'][number]>(
    `SELECT id, name, role, status FROM agents WHERE company_id = ? AND status <> 'terminated' AND name LIKE ? ESCAPE '\\' ORDER BY lower(name) LIMIT ?`,
  );
  const projects = sqlite.prepare<[string, string, number], SearchResults['projects'][number]>(
    `SELECT id, name, status FROM projects WHERE company_id = ? AND name LIKE ? ESCAPE '\\' ORDER BY lower(name) LIMIT ?`,
  );
  // By (company, number), the unique index: `identifier = ? COLLATE NOCASE` cannot use the
  // identifier's index and scanned every issue of the company on every keystroke.
  const byNumber = sqlite.prepare<[string, number], IssueRow>('SELECT id, identifier, title, status FROM issues WHERE company_id = ? AND number = ? AND deleted_at IS NULL');
  /** An issue identifier typed as is ("ACME-12", any case) finds that issue first. */
  function byIdentifier(companyId: string, q: string): IssueRow | undefined {
    const m = IDENTIFIER.exec(q);
    if (!m) return undefined;
    const row = byNumber.get(companyId, Number(m[1]));
    return row && row.identifier.toLowerCase() === q.toLowerCase() ? row : undefined;
  }

  return {
    /** Indexes every pending text now (tests that read the index directly). */
    indexPending: () => indexer.indexPending(),
    /** Indexes whatever is pending in the background, batch by batch (at start-up). */
    scheduleIndexing: () => indexer.schedule(),
    stop() {
      unobserve();
      indexer.stop();
    },

    search(actor: Actor, companyId: string, query: SearchQuery): SearchResults {
      assertCompanyAccess(actor, companyId);
      indexer.catchUp();
      const like = likeContains(query.q);
      const hits: SearchResults['issues'] = [];
      const exact = byIdentifier(companyId, query.q.trim());
      if (exact) hits.push({ ...exact, matchedIn: 'title', commentId: null, snippet: [] });
      const fts = toFtsQuery(query.q);
      if (fts) {
        const seen = new Set(hits.map((h) => h.id));
        for (const doc of rankedDocs(fts, companyId, query.limit * DOCS_PER_ISSUE)) {
          if (hits.length >= query.limit) break;
          if (seen.has(doc.issue_id)) continue;
          const row = issue.get(doc.issue_id);
          if (!row) continue;
          seen.add(doc.issue_id);
          const inTitle = doc.title_hl.includes(MARK_START);
          const inBody = doc.snip.includes(MARK_START);
          hits.push({
            ...row,
            matchedIn: doc.comment_id ? 'comment' : inTitle && !inBody ? 'title' : 'description',
            commentId: doc.comment_id,
            // A title-only match has nothing more to show than the title itself.
            snippet: inBody ? snippetParts(doc.snip) : [],
          });
        }
      }
      return { issues: hits, agents: agents.all(companyId, like, NAME_HITS), projects: projects.all(companyId, like, NAME_HITS) };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
