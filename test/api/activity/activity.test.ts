import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCompany, startCore, type TestCore } from '../../helpers/core.js';

let t: TestCore;
let companyId: string;
beforeEach(async () => {
  t = await startCore();
  companyId = await createCompany(t);
});
afterEach(async () => {
  await t.close();
});

describe('activity', () => {
  it('pages newest first with an opaque cursor and filters', async () => {
    for (let i = 0; i < 7; i++) await t.api('POST', `/api/companies/${companyId}/projects`, { body: { name: `P${i}` } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.api('GET', `/api/companies/${companyId}/activity?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.items.map((i: any) => i.summary));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...Array.from({ length: 7 }, (_, i) => `Project "P${6 - i}" created`), 'Company "Acme" created']);
    const filtered = await t.api('GET', `/api/companies/${companyId}/activity?entityType=company`);
    expect(filtered.body.items.map((i: any) => i.action)).toEqual(['company.created']);
    const first = (await t.api('GET', `/api/companies/${companyId}/activity?limit=1`)).body.items[0];
    expect(first).toMatchObject({ actorType: 'board', actorId: null, entityType: 'project', companyId });
  });

  it('refuses a bad cursor, limit or unknown parameter', async () => {
    for (const q of ['cursor=garbage', 'limit=0', 'limit=201', 'limit=abc', 'since=yesterday']) {
      const res = await t.api('GET', `/api/companies/${companyId}/activity?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});
