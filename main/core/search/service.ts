import type Database from 'better-sqlite3';
import type { CoreContext } from '../context.js';
import type { Actor } from '../kernel/actor.js';
import { assertCompanyAccess } from '../kernel/access.js';
import { likeContains, MARK_END, MARK_START, snippetParts, toFtsQuery } from './query.js';
import type { SearchQuery, SearchResults } from './contract.js';

/** A title match weighs this many body matches (bm25 column weights). */
const TITLE_WEIGHT = 8;
/** Matching texts read per issue wanted: an issue whose comments match often holds several. */
const DOCS_PER_ISSUE = 4;
/** Texts (issues and comments) in the first ranking window; see rankedDocs. */
const FIRST_WINDOW = 1_000;
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

/**
 * Finds a company's issues (titles, descriptions, comments; FTS5 ranked by bm25), agents and
 * projects (by name). The index is kept by triggers (migration 0010_search_fts), so every write
 * path is covered without the services knowing about search.
 */
export function createSearchService(ctx: Pick<CoreContext, 'db'>) {
  // FTS5 functions (bm25, snippet, highlight) are plain SQL; drizzle's client underneath runs them.
  const sqlite = (ctx.db as typeof ctx.db & { $client: Database.Database }).$client;
  const ranked = sqlite.prepare<[string, number, string, number], DocHit>(`
    SELECT d.issue_id, d.comment_id,
      highlight(search_fts, 0, '${MARK_START}', '${MARK_END}') AS title_hl,
      snippet(search_fts, 1, '${MARK_START}', '${MARK_END}', '…', 16) AS snip
    FROM search_fts JOIN search_docs d ON d.id = search_fts.rowid
    WHERE search_fts MATCH ? AND search_fts.rowid > ? AND d.company_id = ?
    ORDER BY bm25(search_fts, ${TITLE_WEIGHT}, 1)
    LIMIT ?`);
  const newest = sqlite.prepare<[], { max: number | null }>('SELECT max(id) AS max FROM search_docs');

  /**
   * bm25 scores every matching text, so a word found in most of 100,000 issues costs hundreds of
   * milliseconds to rank in full. Ranking runs first over the newest texts and widens (x10) only
   * while that window holds fewer hits than wanted: common words are ranked among recent work,
   * rare words still over everything (their match lists are short, so each pass is cheap).
   */
  function rankedDocs(fts: string, companyId: string, wanted: number): DocHit[] {
    const max = newest.get()?.max ?? 0;
    let rows: DocHit[] = [];
    for (let window = FIRST_WINDOW; ; window *= 10) {
      const floor = window >= max ? 0 : max - window;
      rows = ranked.all(fts, floor, companyId, wanted);
      if (floor === 0 || new Set(rows.map((r) => r.issue_id)).size * DOCS_PER_ISSUE >= wanted) break;
    }
    return rows;
  }
  const issue = sqlite.prepare<[string], IssueRow>('SELECT id, identifier, title, status FROM issues WHERE id = ?');
  const agents = sqlite.prepare<[string, string, number], SearchResults['agents'][number]>(
    `SELECT id, name, role, status FROM agents WHERE company_id = ? AND status <> 'terminated' AND name LIKE ? ESCAPE '\\' ORDER BY lower(name) LIMIT ?`,
  );
  const projects = sqlite.prepare<[string, string, number], SearchResults['projects'][number]>(
    `SELECT id, name, status FROM projects WHERE company_id = ? AND name LIKE ? ESCAPE '\\' ORDER BY lower(name) LIMIT ?`,
  );
  // An issue identifier typed as is ("ACME-12") finds that issue first.
  const byIdentifier = sqlite.prepare<[string, string], IssueRow>('SELECT id, identifier, title, status FROM issues WHERE company_id = ? AND identifier = ? COLLATE NOCASE');

  return {
    search(actor: Actor, companyId: string, query: SearchQuery): SearchResults {
      assertCompanyAccess(actor, companyId);
      const like = likeContains(query.q);
      const hits: SearchResults['issues'] = [];
      const exact = byIdentifier.get(companyId, query.q.trim());
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
