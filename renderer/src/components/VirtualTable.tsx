import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { rowLinkProps, type TableProps } from './Table.js';
import { LoadMore } from './LoadMore.js';
import './virtual-table.css';

/** Rows kept mounted beyond the visible ones, and how close to the end the next page is asked for. */
const OVERSCAN = 12;
const PREFETCH_ROWS = 20;

/**
 * The dense table of Table.tsx for long lists: only the rows in view are in the DOM (a spacer row
 * above and below keeps the scrollbar true), the header stays put, and reaching the last rows
 * loads the next page of a cursor-paged list.
 */
export function VirtualTable<T>({ columns, rows, rowKey, onRowClick, label, empty, hasMore = false, loadingMore = false, loadMore, rowHeight = 41 }: TableProps<T> & {
  hasMore?: boolean;
  loadingMore?: boolean;
  loadMore?: () => void;
  /** Estimated row height in pixels; rows are measured once shown. */
  rowHeight?: number;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  // TanStack Virtual returns a mutable instance; the rule matters only under the React Compiler, which the board does not use.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    getItemKey: (i) => rowKey(rows[i]!),
  });
  const items = virtualizer.getVirtualItems();
  const last = items.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && loadMore && last >= rows.length - PREFETCH_ROWS) loadMore();
  }, [last, rows.length, hasMore, loadMore]);

  if (rows.length === 0 && empty && !hasMore) return <>{empty}</>;
  const top = items[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  return (
    <div className="virtual-table" ref={scroller} tabIndex={-1}>
      <table className="table" aria-label={label} aria-rowcount={hasMore ? -1 : rows.length + 1}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} style={{ width: c.width, textAlign: c.align }} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {top > 0 ? <tr aria-hidden="true" style={{ height: top }} /> : null}
          {items.map((v) => {
            const row = rows[v.index]!;
            return (
              <tr
                key={v.key}
                data-index={v.index}
                ref={virtualizer.measureElement}
                aria-rowindex={v.index + 2}
                {...rowLinkProps(row, onRowClick)}
              >
                {columns.map((c) => (
                  <td key={c.key} style={{ textAlign: c.align }}>
                    {c.render(row)}
                  </td>
                ))}
              </tr>
            );
          })}
          {bottom > 0 ? <tr aria-hidden="true" style={{ height: bottom }} /> : null}
        </tbody>
      </table>
      {hasMore || loadingMore ? <LoadMore loading={loadingMore} onVisible={loadMore} /> : null}
    </div>
  );
}
