import { describe, expect, it } from 'vitest';
import { allArrayPages } from '../../../renderer/src/api/array-pages.js';
import type { ApiClient } from '../../../renderer/src/api/client.js';

/** A client over a list of 1,150 numbers served 500 at a time with X-Next-Cursor, as the API pages plain arrays. */
function pagedClient(total: number, seen: string[]): ApiClient {
  return {
    raw: async (path: string) => {
      seen.push(path);
      const url = new URL(path, 'http://x');
      const start = Number(url.searchParams.get('after') ?? 0);
      const limit = Number(url.searchParams.get('limit'));
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => start + i);
      const next = start + items.length < total ? String(start + items.length) : null;
      return new Response(JSON.stringify(items), { headers: { 'content-type': 'application/json', ...(next ? { 'x-next-cursor': next } : {}) } });
    },
  } as unknown as ApiClient;
}

describe('allArrayPages', () => {
  it('follows X-Next-Cursor to the end, keeping the filters on every page', async () => {
    const seen: string[] = [];
    const items = await allArrayPages<number>(pagedClient(1150, seen), '/api/companies/c/approvals', { status: 'pending' });
    expect(items).toHaveLength(1150);
    expect(items.at(-1)).toBe(1149);
    expect(seen).toHaveLength(3);
    expect(seen.every((p) => p.includes('status=pending'))).toBe(true);
  });

  it('stops at maxPages for a list that never ends', async () => {
    const seen: string[] = [];
    expect(await allArrayPages<number>(pagedClient(1_000_000, seen), '/x', {}, 2)).toHaveLength(1000);
    expect(seen).toHaveLength(2);
  });
});
