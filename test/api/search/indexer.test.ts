import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { startCore, createCompany, type TestCore } from '../../helpers/core.js';
import { INDEX_BATCH } from '../../../main/core/search/indexer.js';

// Texts are indexed after their transaction, not in it (search/indexer.ts, migration
// 0017_search_deferred): a search must still see every committed write, and the index must catch
// up on its own.
let t: TestCore;
let cid: string;
beforeAll(async () => {
  t = await startCore({ heartbeats: false });
  cid = await createCompany(t, 'Acme');
});
afterAll(async () => {
  await t.close();
});

const sqlite = () => t.core.database.sqlite;
const pending = () => (sqlite().prepare('SELECT count(*) AS n FROM search_docs WHERE pending = 1').get() as { n: number }).n;
const indexed = (match: string) => (sqlite().prepare('SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH ?').get(match) as { n: number }).n;
const search = async (q: string) => {
  const res = await t.api('GET', `/api/companies/${cid}/search?q=${encodeURIComponent(q)}`);
  expect(res.status, res.text).toBe(200);
  return (res.body.issues as Array<{ id: string; matchedIn: string }>).map((i) => `${i.id}:${i.matchedIn}`);
};
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
}
async function newIssue(title: string, description = ''): Promise<string> {
  const res = await t.api('POST', `/api/companies/${cid}/issues`, { body: { title, description } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('deferred search indexing', () => {
  it('leaves a new text out of the writing transaction, and a search right after still finds it', () => {
    // Services called directly, with no await between: no background indexing can run in between.
    const board = { kind: 'board' } as const;
    t.core.services.search.indexPending();
    const created = t.core.services.issues.create(board, cid, { title: 'Wombat burrow survey' });
    expect(pending()).toBe(1);
    expect(indexed('wombat')).toBe(0);
    const found = t.core.services.search.search(board, cid, { q: 'wombat', limit: 20 });
    expect(found.issues.map((i) => `${i.id}:${i.matchedIn}`)).toEqual([`${created.id}:title`]);
    expect(pending()).toBe(0);
    expect(indexed('wombat')).toBe(1);
  });

  it('indexes on its own shortly after the commit, without any search', async () => {
    const id = await newIssue('Numbat feeding schedule');
    const comment = await t.api('POST', `/api/issues/${id}/comments`, { body: { body: 'Termites arrive on Tuesday' } });
    expect(comment.status, comment.text).toBe(201);
    await until(() => pending() === 0);
    expect(indexed('numbat')).toBe(1);
    expect(indexed('termites')).toBe(1);
  });

  it('replaces the entry of an edited text: the old words stop matching, the new ones match', async () => {
    const id = await newIssue('Platypus enclosure', 'Needs a deeper pool');
    expect(await search('platypus')).toEqual([`${id}:title`]);
    const res = await t.api('PATCH', `/api/issues/${id}`, { body: { title: 'Echidna enclosure', description: 'Needs more ants' } });
    expect(res.status, res.text).toBe(200);
    expect(await search('platypus')).toEqual([]);
    expect(await search('echidna')).toEqual([`${id}:title`]);
    expect(await search('ants')).toEqual([`${id}:description`]);
    // One entry per text, not one per version of it.
    expect(indexed('enclosure')).toBe(1);
  });

  it('marks a text pending only when a write changed it', async () => {
    const board = { kind: 'board' } as const;
    const id = await newIssue('Bilby nest count');
    t.core.services.search.indexPending();
    t.core.services.issues.patch(board, id, { priority: 'high', title: 'Bilby nest count' });
    expect(pending()).toBe(0);
    t.core.services.issues.patch(board, id, { description: 'Two nests by the creek' });
    expect(pending()).toBe(1);
  });

  it(`catches up on more than a batch (${INDEX_BATCH}) of texts written outside any request, as an import leaves them`, async () => {
    const company = sqlite().prepare('SELECT issue_prefix AS prefix FROM companies WHERE id = ?').get(cid) as { prefix: string };
    const now = new Date().toISOString();
    const insert = sqlite().prepare(`INSERT INTO issues (id, company_id, number, identifier, title, description, status, priority, priority_rank, created_by_type, created_at, updated_at, last_activity_at)
      VALUES (?, ?, ?, ?, ?, '', 'todo', 'medium', 2, 'board', ?, ?, ?)`);
    const total = INDEX_BATCH * 2 + 500;
    t.core.services.search.indexPending();
    sqlite().transaction(() => {
      for (let i = 0; i < total; i++) insert.run(`bulk-${i}`, cid, 100_000 + i, `${company.prefix}-${100_000 + i}`, `Quoll sighting ${i}`, now, now, now);
    })();
    expect(pending()).toBe(total);
    // The next commit of a request wakes the background indexer, which works through every batch.
    await newIssue('Wallaby fence');
    await until(() => pending() === 0);
    expect(indexed('quoll')).toBe(total);
    expect(indexed('wallaby')).toBe(1);
  });

  it('indexes every pending text in full before a search, however many', async () => {
    sqlite().prepare('UPDATE search_docs SET pending = 1').run();
    const before = pending();
    expect(before).toBeGreaterThan(INDEX_BATCH * 2);
    expect(t.core.services.search.indexPending()).toBe(before);
    expect(pending()).toBe(0);
    // Re-indexed in place: each text still has exactly one entry.
    expect(indexed('quoll')).toBe(INDEX_BATCH * 2 + 500);
    const integrity = () => sqlite().prepare("INSERT INTO search_fts(search_fts, rank) VALUES('integrity-check', 1)").run();
    expect(integrity).not.toThrow();
  });
});

describe('texts left pending when the server stopped', () => {
  it('are indexed in the background after the next start, with no search asking for them', async () => {
    const first = await startCore({ heartbeats: false });
    const home = first.home;
    const companyId = await createCompany(first, 'Restarted');
    const res = await first.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Dingo tracks by the river' } });
    expect(res.status, res.text).toBe(201);
    // Marked pending again, as an import or a crash before the indexer ran would leave them.
    first.core.database.sqlite.prepare('UPDATE search_docs SET pending = 1').run();
    await first.core.close();

    const second = await startCore({ heartbeats: false, home });
    try {
      const count = (sql: string) => (second.core.database.sqlite.prepare(sql).get() as { n: number }).n;
      await until(() => count('SELECT count(*) AS n FROM search_docs WHERE pending = 1') === 0);
      expect(count("SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH 'dingo'")).toBe(1);
    } finally {
      await second.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('when indexing fails', () => {
  it('a search still answers, from the index as it stands, and the failure is said once', async () => {
    const warnings: string[] = [];
    const core = await startCore({ heartbeats: false, logger: { info: () => {}, warn: (m) => warnings.push(m), error: () => {} } });
    try {
      const companyId = await createCompany(core, 'Failing');
      const indexedIssue = await core.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Kookaburra calls at dawn' } });
      core.core.services.search.indexPending();
      // Marking texts indexed fails from now on, as a full disk would make it.
      core.core.database.sqlite.exec("CREATE TEMP TRIGGER fail_indexing BEFORE UPDATE OF pending ON search_docs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
      await core.api('POST', `/api/companies/${companyId}/issues`, { body: { title: 'Kookaburra nest found' } });
      for (let i = 0; i < 3; i++) {
        const res = await core.api('GET', `/api/companies/${companyId}/search?q=kookaburra`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.issues.map((x: { id: string }) => x.id)).toEqual([indexedIssue.body.id]);
      }
      // Said once, by the search or by the background indexer, whichever met it first.
      expect(warnings.filter((w) => /index/.test(w))).toHaveLength(1);
      core.core.database.sqlite.exec('DROP TRIGGER temp.fail_indexing');
      const res = await core.api('GET', `/api/companies/${companyId}/search?q=nest`);
      expect(res.body.issues).toHaveLength(1);
    } finally {
      await core.close();
    }
  });
});
