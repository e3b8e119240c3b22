import { buildUrl, toApiError, type ApiClient } from './client.js';

/**
 * Every page of a list the API returns as the spec's plain array, following its `X-Next-Cursor`
 * header: every such list answers one page at a time (200 by default, 500 asked for here). The
 * board shows these lists whole (they are short in practice); `maxPages` bounds a runaway one.
 */
export async function allArrayPages<T>(api: ApiClient, path: string, query: Record<string, string | number | undefined> = {}, maxPages = 50): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const res = await api.raw(buildUrl('', path, { ...query, limit: 500, after }));
    if (!res.ok) throw await toApiError(res);
    items.push(...((await res.json()) as T[]));
    after = res.headers.get('x-next-cursor') ?? undefined;
    if (!after) break;
  }
  return items;
}
