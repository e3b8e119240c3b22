import { afterEach, describe, expect, it } from 'vitest';
import type { TestCore } from '../../helpers/core.js';
import { companyWithAgent, createRoutine, manualClock, routineCore } from './helpers.js';

let t: TestCore | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a routine\'s firings page like the other histories', () => {
  it('newest first, X-Next-Cursor to the end, every firing once; a foreign cursor is 400', async () => {
    const clock = manualClock('2026-06-01T08:00:00.000Z');
    t = await routineCore(clock);
    const { companyId, agentId } = await companyWithAgent(t);
    const r = await createRoutine(t, companyId, { title: 'On demand', assigneeAgentId: agentId, trigger: { kind: 'api' }, concurrency: 'always' });
    const fired: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Two firings share each instant: the order they were written breaks the tie.
      if (i % 2 === 0) clock.advance(60_000);
      const res = await t.api('POST', `/api/routines/${r.id}/fire`, { body: { n: i } });
      expect(res.status).toBe(201);
      fired.push(res.body.id);
    }
    const seen: string[] = [];
    let url: string | null = `/api/routines/${r.id}/firings?limit=3`;
    let pages = 0;
    while (url) {
      const res: { status: number; body: any; headers: Headers } = await t.api('GET', url);
      expect(res.status).toBe(200);
      expect(res.body.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.map((f: { id: string }) => f.id));
      const next: string | null = res.headers.get('x-next-cursor');
      url = next ? `/api/routines/${r.id}/firings?limit=3&after=${encodeURIComponent(next)}` : null;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...fired].reverse());
    expect((await t.api('GET', `/api/routines/${r.id}/firings?after=not-a-cursor`)).body).toMatchObject({ code: 'invalid_cursor' });
  });
});
