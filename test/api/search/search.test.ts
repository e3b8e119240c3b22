import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { MIGRATIONS_FOLDER } from '../../../main/core/db/migrate.js';
import { startCore, createCompany, createAgent, createAgentKey, type TestCore } from '../../helpers/core.js';
import { toFtsQuery, snippetParts, likeContains } from '../../../main/core/search/query.js';
import { SEARCH_CANDIDATES } from '../../../main/core/search/service.js';

let t: TestCore;
let cid: string;
let other: string;
beforeAll(async () => {
  t = await startCore({ heartbeats: false });
  cid = await createCompany(t, 'Acme');
  other = await createCompany(t, 'Other');
});
afterAll(async () => {
  await t.close();
});

async function issue(companyId: string, title: string, description = ''): Promise<{ id: string; identifier: string }> {
  const res = await t.api('POST', `/api/companies/${companyId}/issues`, { body: { title, description } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const search = (q: string, companyId = cid, token?: string) =>
  t.api('GET', `/api/companies/${companyId}/search?q=${encodeURIComponent(q)}`, token ? { token } : {});

describe('GET /api/companies/:companyId/search', () => {
  it('finds issues by title, description and comment, ranks title matches first, with a snippet', async () => {
    const inDescription = await issue(cid, 'Improve onboarding', 'The invoice export breaks on large accounts.');
    const inTitle = await issue(cid, 'Invoice export to CSV', 'Finance asked for it.');
    const inComment = await issue(cid, 'Quarterly report');
    await t.api('POST', `/api/issues/${inComment.id}/comments`, { body: { body: 'Blocked until the invoice numbers are final.' } });
    await issue(other, 'Invoice in the other company');

    const res = await search('invoice');
    expect(res.status).toBe(200);
    const ids = res.body.issues.map((i: { id: string }) => i.id);
    expect(ids).toHaveLength(3);
    expect(ids[0]).toBe(inTitle.id);
    expect(new Set(ids)).toEqual(new Set([inTitle.id, inDescription.id, inComment.id]));
    const described = res.body.issues.find((i: { id: string }) => i.id === inDescription.id);
    expect(described).toMatchObject({ matchedIn: 'description', identifier: inDescription.identifier });
    expect(described.snippet).toContainEqual({ text: 'invoice', match: true });
    expect(res.body.issues.find((i: { id: string }) => i.id === inComment.id)).toMatchObject({ matchedIn: 'comment' });
    expect(res.body.issues[0]).toMatchObject({ matchedIn: 'title' });
  });

  it('keeps the index in step with edits: a changed title is found by its new words only', async () => {
    const created = await issue(cid, 'Rename the zebrafish module');
    expect((await search('zebrafish')).body.issues.map((i: { id: string }) => i.id)).toEqual([created.id]);
    const patched = await t.api('PATCH', `/api/issues/${created.id}`, { body: { title: 'Rename the axolotl module' } });
    expect(patched.status, patched.text).toBe(200);
    expect((await search('zebrafish')).body.issues).toEqual([]);
    expect((await search('axolotl')).body.issues.map((i: { id: string }) => i.id)).toEqual([created.id]);
  });

  it('matches the last word as a prefix, and an identifier exactly', async () => {
    const created = await issue(cid, 'Calibrate the spectrometer');
    expect((await search('spectro')).body.issues.map((i: { id: string }) => i.id)).toEqual([created.id]);
    expect((await search(created.identifier.toLowerCase())).body.issues[0].id).toBe(created.id);
  });

  it('ranks a word matching more than SEARCH_CANDIDATES texts among its newest matches, title hits first', async () => {
    const busy = await createCompany(t, 'Busy');
    const oldTitle = await issue(busy, 'Plankton survey', 'nothing here');
    const filler: string[] = [];
    for (let n = 0; n <= SEARCH_CANDIDATES; n++) filler.push((await issue(busy, `Task ${n}`, 'count the plankton')).id);
    const newTitle = await issue(busy, 'Plankton dashboard', 'nothing here');
    const ids = (await search('plankton', busy)).body.issues.map((i: { id: string }) => i.id);
    expect(ids).toHaveLength(20);
    // The newest title match first, then body matches newest first; the oldest title match is
    // beyond the candidates a common word is ranked among.
    expect(ids[0]).toBe(newTitle.id);
    expect(ids.slice(1)).toEqual(filler.slice(-19).reverse());
    expect(ids).not.toContain(oldTitle.id);
    // A rarer word in the same company is still ranked by bm25 over all of its matches.
    expect((await search('survey', busy)).body.issues.map((i: { id: string }) => i.id)).toEqual([oldTitle.id]);
  }, 60_000);

  it('finds an identifier typed in any case without reading every issue', async () => {
    const created = await issue(other, 'Identifier lookup');
    for (const q of [created.identifier, created.identifier.toLowerCase()]) {
      expect((await search(q, other)).body.issues[0]).toMatchObject({ id: created.id, matchedIn: 'title' });
    }
    // Another company's issue with the same number is not this one.
    const [prefix, number] = created.identifier.split('-');
    expect((await search(`${prefix === 'X' ? 'Y' : 'X'}-${number}`, other)).body.issues).toEqual([]);
  });

  it('finds agents and projects by name', async () => {
    await createAgent(t, cid, { name: 'Marguerite' });
    await t.api('POST', `/api/companies/${cid}/projects`, { body: { name: 'Margin analysis' } });
    const res = await search('marg');
    expect(res.body.agents.map((a: { name: string }) => a.name)).toEqual(['Marguerite']);
    expect(res.body.projects.map((p: { name: string }) => p.name)).toEqual(['Margin analysis']);
    // LIKE wildcards are text: "%" finds names containing a percent sign, not everything.
    expect((await search('%')).body.agents).toEqual([]);
  });

  it('answers FTS5 syntax in the query as text, never 400 or 500', async () => {
    for (const q of ['"', 'AND', 'title:foo', 'NEAR(a b)', '* OR -', '(((', 'a"b', '^x', "'; DROP TABLE issues; --", '\u0000']) {
      const res = await search(q);
      expect(res.status, q).toBe(200);
    }
    const quoted = await issue(cid, 'Handle "quoted" words');
    expect((await search('"quoted"')).body.issues.map((i: { id: string }) => i.id)).toContain(quoted.id);
  });

  it('refuses an empty or overlong query with 400', async () => {
    expect((await search('')).status).toBe(400);
    expect((await search('   ')).status).toBe(400);
    expect((await search('x'.repeat(201))).status).toBe(400);
  });

  it('is open to the board and the company\'s own agents only', async () => {
    const agent = await createAgent(t, other, { name: 'Outsider' });
    const key = await createAgentKey(t, agent.id);
    expect((await search('invoice', cid, key)).status).toBe(404);
    const own = await search('invoice', other, key);
    expect(own.status).toBe(200);
    expect(own.body.issues).toHaveLength(1);
    expect((await t.api('GET', `/api/companies/${cid}/search?q=x`, { token: null })).status).toBe(401);
  });
});

describe('the FTS query builder', () => {
  it('never produces a query FTS5 refuses', () => {
    const db = new Database(':memory:');
    db.exec("CREATE VIRTUAL TABLE f USING fts5(title, body); INSERT INTO f VALUES ('a', 'b')");
    const stmt = db.prepare('SELECT count(*) FROM f WHERE f MATCH ?');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (input) => {
        const q = toFtsQuery(input);
        if (q !== null) stmt.get(q);
      }),
      { numRuns: 500 },
    );
    expect(toFtsQuery('foo "bar')).toBe('"foo" """bar"*');
    expect(toFtsQuery(' -- ')).toBeNull();
    db.close();
  });

  it('turns snippet markers into parts and escapes LIKE wildcards', () => {
    expect(snippetParts('a \u0002b\u0003 c')).toEqual([{ text: 'a ', match: false }, { text: 'b', match: true }, { text: ' c', match: false }]);
    expect(likeContains('50%_a\\')).toBe('%50\\%\\_a\\\\%');
  });
});

describe('the migration', () => {
  it('indexes the issues and comments that existed before it', async () => {
    // Empty the index, run the migration's backfill statements, and search finds the old rows again.
    const sql = readFileSync(path.join(MIGRATIONS_FOLDER, '0010_search_fts.sql'), 'utf8');
    const backfill = sql.split('--> statement-breakpoint').map((x) => x.replace(/^\s*--.*$/gm, '').trim()).filter((x) => /^INSERT INTO search_(docs|fts)\b[\s\S]*SELECT/.test(x));
    expect(backfill).toHaveLength(4);
    const sqlite = t.core.database.sqlite;
    sqlite.exec('DELETE FROM search_docs; DELETE FROM search_fts;');
    expect((await search('invoice')).body.issues).toEqual([]);
    for (const statement of backfill) sqlite.exec(statement);
    const counts = sqlite.prepare('SELECT (SELECT count(*) FROM search_docs) AS docs, (SELECT count(*) FROM search_fts) AS fts, (SELECT count(*) FROM issues) + (SELECT count(*) FROM issue_comments) AS rows').get() as Record<string, number>;
    expect(counts.docs).toBe(counts.rows);
    expect(counts.fts).toBe(counts.rows);
    expect((await search('invoice')).body.issues).toHaveLength(3);
  });
});
