/** One page of a list answered as a plain array, and its `Link` header. */
export interface ArrayPageResponse {
  body: unknown;
  link: string | null;
}

/**
 * Every page of a list the API answers as the spec's plain array, one page at a time
 * (kernel/header-page.ts): asks for `pageSize` entries a page and follows `Link: <...>; rel="next"`,
 * at most `maxPages` times, a bound on a list that never ends. For API clients of our own (the
 * CLI, the demo); the board has its own in the renderer.
 */
export async function collectArrayPages<T>(urlPath: string, get: (url: string) => Promise<ArrayPageResponse>, pageSize = 500, maxPages = 100): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = `${urlPath}${urlPath.includes('?') ? '&' : '?'}limit=${pageSize}`;
  for (let page = 0; next !== null && page < maxPages; page++) {
    const { body, link } = await get(next);
    items.push(...(body as T[]));
    next = /^<([^>]+)>; rel="next"$/.exec(link ?? '')?.[1] ?? null;
  }
  return items;
}
