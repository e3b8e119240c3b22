import { useMemo } from 'react';
import { useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import { useApi } from '../app/api-context.js';
import type { Page } from './types.js';

type Params = Record<string, string | number | boolean | undefined>;

/**
 * Every row of a cursor-paged list (`{ items, nextCursor }`), one page at a time: the list shows
 * what is loaded and calls `loadMore` as the founder scrolls near its end, so nothing stops
 * silently at the first page. The key should start with the list's usual key (keys.ts), so live
 * invalidation refetches it.
 */
export function useCursorList<T>(queryKey: QueryKey, path: string, params: Params = {}, pageSize = 100) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: [...queryKey, 'paged', params, pageSize],
    queryFn: ({ pageParam }) => api.get<Page<T>>(path, { ...params, limit: pageSize, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const loadMore = useMemo(
    () => () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );
  return { ...query, items, hasMore: !!hasNextPage, loadingMore: isFetchingNextPage, loadMore };
}
