import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, createAgentKey, createCompany } from '../../helpers/core.js';
import { allow, createOutbox, crmWorld, rule, type CrmWorld } from './helpers.js';
import { allArrayPages } from '../../helpers/array-pages.js';

// No CRM list answers with all its rows (issue "no route returns an unbounded list"): each keeps
// its plain-array body and its order, one page at a time, the next page named by X-Next-Cursor and
// Link as for issue comments (test/api/issues/array-pages.test.ts).

let w: CrmWorld;
let ms = Date.UTC(2026, 4, 1);
beforeEach(async () => {
  // Every record a distinct, increasing time, except where a test freezes it; no background
  // scheduler reads the clock between a test's freezing it and the request it is frozen for.
  w = await crmWorld({ core: { clock: { now: () => new Date(ms++) }, sequences: false, routines: false } });
});
afterEach(async () => {
  await w.t.close();
});


/** The list without paging parameters, then paged: the same rows in the same order, none twice. */
async function pagesEqualWhole(url: string, limit: number, expectedCount: number, key = (x: any) => x.id): Promise<any[]> {
  const whole = await w.t.api('GET', url);
  expect(whole.status, whole.text).toBe(200);
  expect(whole.body).toHaveLength(expectedCount);
  expect(whole.headers.get('x-next-cursor')).toBeNull();
  expect(whole.headers.get('link')).toBeNull();
  const { pages, items } = await allArrayPages(w.t, url, limit);
  expect(pages).toHaveLength(Math.ceil(expectedCount / limit));
  expect(items).toEqual(whole.body);
  expect(new Set(items.map(key)).size).toBe(items.length);
  return items;
}

/** A foreign cursor, a limit over the bound and an unknown parameter are each a 400. */
async function expectBounded(url: string, maxLimit = 500): Promise<void> {
  const sep = url.includes('?') ? '&' : '?';
  for (const after of ['garbage', Buffer.from('["x"]').toString('base64url'), Buffer.from('[1, 1.5]').toString('base64url')]) {
    const res = await w.t.api('GET', `${url}${sep}after=${after}`);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('invalid_cursor');
  }
  expect((await w.t.api('GET', `${url}${sep}limit=501`)).status).toBe(400);
  expect((await w.t.api('GET', `${url}${sep}limit=${maxLimit + 1}`)).status).toBe(400);
  expect((await w.t.api('GET', `${url}${sep}limit=0`)).status).toBe(400);
  expect((await w.t.api('GET', `${url}${sep}bogus=1`)).status).toBe(400);
}

/** The ids in the order the list had before it paged (its old ORDER BY, read straight from the table). */
const idsInOldOrder = (sql: string, ...params: unknown[]): string[] => (w.t.core.database.sqlite.prepare(sql).all(...params) as { id: string }[]).map((r) => r.id);

const piece = (i: number, extra: Record<string, unknown> = {}) =>
  w.t.api('POST', `${w.base}/content-pieces`, { body: { title: `P${i}`, sourcePath: `content/p${i}.md`, sourceSha256: 'ab'.repeat(32), ...extra } });

describe('CRM lists page with a cursor and keep their order', () => {
  it('outboxes and their quota rows: oldest first, deleted ones hidden, rows of one millisecond by insertion', async () => {
    let frozen = 0;
    const boxes = [];
    for (let i = 0; i < 7; i++) {
      if (i === 2) frozen = ms;
      if (i >= 2 && i <= 4) ms = frozen; // three outboxes share one createdAt
      boxes.push(await createOutbox(w, { channel: 'dry-run', name: `box-${i}` }));
    }
    expect(new Set(boxes.slice(2, 5).map((b) => b.createdAt)).size).toBe(1);
    const gone = await createOutbox(w, { channel: 'dry-run', name: 'gone' });
    expect((await w.t.api('DELETE', `${w.base}/outboxes/${gone.id}`)).status).toBe(200);

    const outboxes = await pagesEqualWhole(`${w.base}/outboxes`, 2, 7);
    expect(outboxes.map((o) => o.name)).toEqual(['box-0', 'box-1', 'box-2', 'box-3', 'box-4', 'box-5', 'box-6']);
    expect(outboxes.map((o) => o.id)).toEqual(idsInOldOrder('SELECT id FROM crm_outboxes WHERE company_id = ? AND deleted_at IS NULL ORDER BY created_at, id', w.companyId));

    const quota = await pagesEqualWhole(`${w.base}/quota`, 3, 7, (q) => q.outboxId);
    expect(quota.map((q) => q.outboxId)).toEqual(outboxes.map((o) => o.id));
    await expectBounded(`${w.base}/outboxes`);
    await expectBounded(`${w.base}/quota`);
  });

  it('allowlist: oldest first, filters kept across pages', async () => {
    const box = await createOutbox(w, { channel: 'dry-run' });
    for (let i = 0; i < 7; i++) await allow(w, 'address', `p${i}@example.com`, i % 2 ? { channel: 'email' } : { outboxId: box.id });
    const entries = await pagesEqualWhole(`${w.base}/allowlist`, 3, 7);
    expect(entries.map((e) => e.value)).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `p${i}@example.com`));
    expect(entries.map((e) => e.id)).toEqual(idsInOldOrder('SELECT id FROM crm_allowlist_entries WHERE company_id = ? ORDER BY created_at, id', w.companyId));
    const email = await pagesEqualWhole(`${w.base}/allowlist?channel=email`, 2, 3);
    expect(email.map((e) => e.value)).toEqual(['p1@example.com', 'p3@example.com', 'p5@example.com']);
    const scoped = await pagesEqualWhole(`${w.base}/allowlist?outboxId=${box.id}`, 3, 4);
    expect(scoped.every((e) => e.outboxId === box.id)).toBe(true);
    await expectBounded(`${w.base}/allowlist`);
    await expectBounded(`${w.base}/allowlist?channel=email`);
  });

  it('approval rules: evaluation order across pages, equal priorities split by a page boundary', async () => {
    const priorities = [5, 1, 3, 3, 1, 2, 3];
    for (const [i, priority] of priorities.entries()) await rule(w, { name: `r${i}`, action: 'queue_for_manual', priority });
    const deleted = await rule(w, { name: 'deleted', action: 'auto_approve', priority: 0 });
    expect((await w.t.api('DELETE', `${w.base}/approval-rules/${deleted.id}`)).status).toBe(204);

    const rules = await pagesEqualWhole(`${w.base}/approval-rules`, 2, 7);
    // Priority ascending, then creation: r2 and r3 (both priority 3) end page 2 and start page 3.
    expect(rules.map((r) => r.name)).toEqual(['r1', 'r4', 'r5', 'r2', 'r3', 'r6', 'r0']);
    const { pages } = await allArrayPages(w.t, `${w.base}/approval-rules`, 2);
    expect(pages.map((p) => p.body.map((r: any) => r.name))).toEqual([['r1', 'r4'], ['r5', 'r2'], ['r3', 'r6'], ['r0']]);
    expect(rules.map((r) => r.id)).toEqual(idsInOldOrder('SELECT id FROM crm_approval_rules WHERE company_id = ? AND deleted_at IS NULL ORDER BY priority, created_at, id', w.companyId));
    await expectBounded(`${w.base}/approval-rules`);
  });

  it('approval rules created in one millisecond keep their creation order within a priority', async () => {
    const frozen = ms;
    const created = [];
    for (let i = 0; i < 5; i++) {
      ms = frozen;
      created.push(await rule(w, { name: `same-${i}`, action: 'queue_for_manual', priority: 7 }));
    }
    expect(new Set(created.map((r) => r.createdAt)).size).toBe(1);
    const rules = await pagesEqualWhole(`${w.base}/approval-rules`, 2, 5);
    expect(rules.map((r) => r.name)).toEqual(['same-0', 'same-1', 'same-2', 'same-3', 'same-4']);
    expect(rules.map((r) => r.id)).toEqual(idsInOldOrder('SELECT id FROM crm_approval_rules WHERE company_id = ? ORDER BY priority, created_at, id', w.companyId));
  });

  it('content pieces: oldest first, niche, channelIntent, sourcePath and issueId filters kept across pages', async () => {
    const issue = (await w.t.api('POST', `/api/companies/${w.companyId}/issues`, { body: { title: 'Launch' } })).body;
    for (let i = 0; i < 7; i++) {
      const res = await piece(i, i % 2 ? { niche: 'saas', channelIntent: 'email', issueId: issue.id } : { niche: 'retail' });
      expect(res.status, res.text).toBe(201);
    }
    const removed = (await piece(99)).body;
    expect((await w.t.api('DELETE', `${w.base}/content-pieces/${removed.id}`)).status).toBe(200);

    const all = await pagesEqualWhole(`${w.base}/content-pieces`, 3, 7);
    expect(all.map((p) => p.title)).toEqual(['P0', 'P1', 'P2', 'P3', 'P4', 'P5', 'P6']);
    expect(all.map((p) => p.id)).toEqual(idsInOldOrder('SELECT id FROM crm_content_pieces WHERE company_id = ? AND deleted_at IS NULL ORDER BY created_at, id', w.companyId));
    expect((await pagesEqualWhole(`${w.base}/content-pieces?niche=retail`, 2, 4)).map((p) => p.title)).toEqual(['P0', 'P2', 'P4', 'P6']);
    expect((await pagesEqualWhole(`${w.base}/content-pieces?channelIntent=email`, 2, 3)).map((p) => p.title)).toEqual(['P1', 'P3', 'P5']);
    expect((await pagesEqualWhole(`${w.base}/content-pieces?issueId=${issue.id}`, 2, 3)).map((p) => p.title)).toEqual(['P1', 'P3', 'P5']);
    expect((await pagesEqualWhole(`${w.base}/content-pieces?sourcePath=content/p4.md`, 2, 1)).map((p) => p.title)).toEqual(['P4']);
    await expectBounded(`${w.base}/content-pieces`);
    await expectBounded(`${w.base}/content-pieces?niche=saas`);
  });

  it('sequences and enrollments: sequences oldest first; enrollments newest first, one enroll call in its order', async () => {
    const box = await createOutbox(w, { channel: 'dry-run' });
    const sequence = async (name: string) => {
      const res = await w.t.api('POST', `${w.base}/sequences`, { body: { name, outboxId: box.id, steps: [{ delayMinutes: 60, payload: { text: 'hi' } }] } });
      expect(res.status, res.text).toBe(201);
      return res.body;
    };
    const seqs = [];
    for (let i = 0; i < 6; i++) seqs.push(await sequence(`s${i}`));
    expect((await w.t.api('DELETE', `${w.base}/sequences/${seqs[5].id}`)).status).toBe(204);
    const listed = await pagesEqualWhole(`${w.base}/sequences`, 2, 5);
    expect(listed.map((s) => s.name)).toEqual(['s0', 's1', 's2', 's3', 's4']);
    expect(listed.map((s) => s.id)).toEqual(idsInOldOrder('SELECT id FROM crm_sequences WHERE company_id = ? AND deleted_at IS NULL ORDER BY created_at, id', w.companyId));
    await expectBounded(`${w.base}/sequences`);

    const enrollments = `${w.base}/sequences/${seqs[0].id}/enrollments`;
    for (const batch of [['a1', 'a2'], ['b1', 'b2', 'b3'], ['c1', 'c2']]) {
      const res = await w.t.api('POST', enrollments, { body: { contacts: batch.map((c) => `${c}@example.com`) } });
      expect(res.status, res.text).toBe(201);
    }
    const enrolled = await pagesEqualWhole(enrollments, 3, 7);
    // Pages of 3 cut the middle call between its first contact and the other two.
    expect(enrolled.map((e) => e.contact.split('@')[0])).toEqual(['c1', 'c2', 'b1', 'b2', 'b3', 'a1', 'a2']);
    expect(enrolled.map((e) => e.id)).toEqual(idsInOldOrder('SELECT id FROM crm_sequence_enrollments WHERE sequence_id = ? ORDER BY created_at DESC, id ASC', seqs[0].id));

    const b2 = enrolled.find((e) => e.contact.startsWith('b2'));
    expect((await w.t.api('POST', `${w.base}/enrollments/${b2.id}/stop`)).status).toBe(200);
    const active = await pagesEqualWhole(`${enrollments}?status=active`, 2, 6);
    expect(active.map((e) => e.contact.split('@')[0])).toEqual(['c1', 'c2', 'b1', 'b3', 'a1', 'a2']);
    // The enrollments list keeps its own limit: 50 by default, at most 200.
    await expectBounded(enrollments, 200);
    await expectBounded(`${enrollments}?status=active`, 200);
  });

  it('the enrollments list still answers 50 by default and pages on from there', async () => {
    const box = await createOutbox(w, { channel: 'dry-run' });
    const seq = (await w.t.api('POST', `${w.base}/sequences`, { body: { name: 'Big', outboxId: box.id, steps: [{ delayMinutes: 60, payload: { text: 'hi' } }] } })).body;
    const url = `${w.base}/sequences/${seq.id}/enrollments`;
    const contacts = Array.from({ length: 60 }, (_, i) => `c${i}@example.com`);
    expect((await w.t.api('POST', url, { body: { contacts } })).status).toBe(201);
    const first = await w.t.api('GET', url);
    expect(first.body).toHaveLength(50);
    const next = first.headers.get('x-next-cursor');
    expect(next).toBeTruthy();
    const rest = await w.t.api('GET', `${url}?after=${next}`);
    expect(rest.body).toHaveLength(10);
    expect([...first.body, ...rest.body].map((e: any) => e.contact)).toEqual(contacts);
  });

  it("access is as before: agents of the company page too, another company's agent gets 404 before any cursor is read", async () => {
    for (let i = 0; i < 3; i++) await createOutbox(w, { channel: 'dry-run', name: `box-${i}` });
    const own = await createAgentKey(w.t, (await createAgent(w.t, w.companyId)).id);
    const first = await w.t.api('GET', `${w.base}/outboxes?limit=2`, { token: own });
    expect(first.body).toHaveLength(2);
    const rest = await w.t.api('GET', `${w.base}/outboxes?limit=2&after=${first.headers.get('x-next-cursor')}`, { token: own });
    expect(rest.body.map((o: any) => o.name)).toEqual(['box-2']);
    const otherCompany = await createCompany(w.t, 'Other');
    const stranger = await createAgentKey(w.t, (await createAgent(w.t, otherCompany)).id);
    for (const list of ['outboxes', 'allowlist', 'approval-rules', 'content-pieces', 'quota', 'sequences']) {
      expect((await w.t.api('GET', `${w.base}/${list}?after=garbage`, { token: stranger })).status, list).toBe(404);
    }
  });
});
