// A table over a long list of rows (Traffic's executions, Messages, sink events): a header row and a
// windowed body (VirtualList: only the rows in view are in the DOM), marked stale and busy while its rows
// are being replaced (a new filter). The page draws the rows; the grid of a row is its CSS class.
import { forwardRef, type ReactNode } from 'react';
import { VirtualList, type VirtualListHandle } from './VirtualList';

export interface TableColumn {
  title: string;
  className?: string;
}

export interface WindowedTableProps {
  /** The table's accessible name. */
  label: string;
  /** Classes beside `ttable` (the table's own layout). */
  className?: string;
  /** Classes of the header row beside `thead`: the same grid as the rows. */
  headerClassName: string;
  columns: readonly TableColumn[];
  loading: boolean;
  /** The body's accessible name. */
  rowsLabel: string;
  count: number;
  rowHeight: number;
  renderRow(index: number): ReactNode;
  onRange(first: number, last: number): void;
  empty: ReactNode;
  /** The keyboard cursor's row, with element ids `${idPrefix}-${index}` (aria-activedescendant). */
  activeIndex?: number;
  idPrefix?: string;
}

export const WindowedTable = forwardRef<VirtualListHandle, WindowedTableProps>(function WindowedTable(p, ref) {
  return (
    <div className={`ttable${p.className ? ` ${p.className}` : ''}${p.loading ? ' stale' : ''}`} role="table" aria-label={p.label} aria-busy={p.loading}>
      <div className={`${p.headerClassName} thead`} role="row">
        {p.columns.map((c, i) => (
          <span key={i} role="columnheader" className={c.className}>
            {c.title}
          </span>
        ))}
      </div>
      <VirtualList
        ref={ref}
        className="tbody"
        label={p.rowsLabel}
        count={p.count}
        rowHeight={p.rowHeight}
        renderRow={p.renderRow}
        onRange={p.onRange}
        empty={p.empty}
        activeIndex={p.activeIndex}
        idPrefix={p.idPrefix}
      />
    </div>
  );
});
