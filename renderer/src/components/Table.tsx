import type { ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  width?: string;
  align?: 'left' | 'right';
}

export interface TableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  onRowClick?: (row: T) => void;
  /** Accessible name of the table. */
  label: string;
  empty?: ReactNode;
}

/** A dense data table; clickable rows are reachable and activatable from the keyboard too. */
export function Table<T>({ columns, rows, rowKey, onRowClick, label, empty }: TableProps<T>) {
  if (rows.length === 0 && empty) return <>{empty}</>;
  return (
    <table className="table" aria-label={label}>
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
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            {...rowLinkProps(row, onRowClick)}
          >
            {columns.map((c) => (
              <td key={c.key} style={{ textAlign: c.align }}>
                {c.render(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A row that opens something: clickable, focusable, and Enter does what a click does. */
export function rowLinkProps<T>(row: T, onRowClick: ((row: T) => void) | undefined) {
  if (!onRowClick) return {};
  return {
    className: 'row-link',
    tabIndex: 0,
    onClick: () => onRowClick(row),
    onKeyDown: (e: { key: string }) => {
      if (e.key === 'Enter') onRowClick(row);
    },
  };
}
