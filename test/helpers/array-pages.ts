import { expect } from 'vitest';
import type { ApiResponse, TestCore } from './core.js';

/**
 * Reads a list the API answers one page at a time as a plain array (kernel/header-page.ts), from its
 * first page to its last by the `Link: rel="next"` header, checking every page on the way: each
 * full page has exactly `limit` entries, an `X-Next-Cursor` and a Link naming it; the last page has
 * neither header.
 */
export async function allArrayPages(t: TestCore, first: string, limit: number, token?: string): Promise<{ pages: ApiResponse<any>[]; items: any[] }> {
  const pages: ApiResponse<any>[] = [];
  let url: string | null = `${first}${first.includes('?') ? '&' : '?'}limit=${limit}`;
  while (url) {
    const res: ApiResponse<any> = await t.api('GET', url, token ? { token } : {});
    expect(res.status, res.text).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    pages.push(res);
    const next = res.headers.get('x-next-cursor');
    if (next) {
      expect(res.body).toHaveLength(limit);
      expect(res.headers.get('link')).toContain(`after=${next}`);
      url = /^<([^>]+)>; rel="next"$/.exec(res.headers.get('link') ?? '')![1]!;
    } else {
      expect(res.body.length).toBeLessThanOrEqual(limit);
      expect(res.headers.get('link')).toBeNull();
      url = null;
    }
    if (pages.length > 50) throw new Error('paging does not end');
  }
  return { pages, items: pages.flatMap((p) => p.body) };
}
