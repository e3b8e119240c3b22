import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
/** One page of a keyset query (db/keyset.ts produces it). */
interface KeysetPage<T> {
  items: T[];
  nextCursor: string | null;
}

/**
 * Lists the spec shows as plain arrays (comments and the like) stay arrays; one page at a time,
 * with the next page's cursor in `X-Next-Cursor` and a `Link: rel="next"`, as issue comments do.
 */
export const ArrayPageQuery = {
  limit: z.coerce.number().int().min(1).max(500).default(200).describe('Entries per page (default 200, at most 500)'),
  after: z.string().max(200).optional().describe('The X-Next-Cursor of the previous page'),
};

export const ARRAY_PAGE_DESCRIPTION =
  'The body is a plain array. When more entries follow, the response has an `X-Next-Cursor` header and a `Link: <...>; rel="next"` header; pass the cursor as `after` for the next page.';

/** Sets the next-page headers and returns the page's items. */
export function sendArrayPage<T>(req: FastifyRequest, reply: FastifyReply, limit: number, page: KeysetPage<T>): T[] {
  if (page.nextCursor) {
    const url = new URL(req.url, 'http://localhost');
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('after', page.nextCursor);
    void reply.header('x-next-cursor', page.nextCursor).header('link', `<${url.pathname}${url.search}>; rel="next"`);
  }
  return page.items;
}
