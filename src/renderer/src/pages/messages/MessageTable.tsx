// The Messages table: a header and a windowed list (only the rows in view are in the DOM). One row: time,
// the hop (who sent it to whom), kind, method, JSON-RPC id, size, and the start of the message text.
import { forwardRef, memo, useCallback, useRef, type MouseEvent, type ReactNode } from 'react';
import type { MessageRow } from '../../../../shared/api/models-messages';
import type { VirtualListHandle } from '../../components/VirtualList';
import { WindowedTable, type TableColumn } from '../../components/WindowedTable';
import { clockTime } from '../traffic/format';
import { hop, KIND_LABEL, size } from './format';

export const ROW_HEIGHT = 30;

const COLUMNS: readonly TableColumn[] = [
  { title: 'Time' },
  { title: 'Hop' },
  { title: 'Kind' },
  { title: 'Method' },
  { title: 'Id' },
  { title: 'Size', className: 'c-size' },
  { title: 'Message' },
];

export interface MessageTableProps {
  items: MessageRow[];
  cursor: number;
  openId?: string;
  loading: boolean;
  onOpen(index: number): void;
  onRange(first: number, last: number): void;
  empty: ReactNode;
}

export const MessageTable = forwardRef<VirtualListHandle, MessageTableProps>(function MessageTable(p, ref) {
  const { items, cursor, openId } = p;
  const props = useRef(p);
  props.current = p;
  const onRowClick = useCallback((e: MouseEvent<HTMLDivElement>) => props.current.onOpen(Number(e.currentTarget.dataset.index)), []);
  const renderRow = useCallback(
    (i: number) => <RowView row={items[i]!} index={i} isCursor={i === cursor} isOpen={items[i]!.id === openId} onClick={onRowClick} />,
    [items, cursor, openId, onRowClick],
  );
  return (
    <WindowedTable
      ref={ref}
      label="Messages"
      className="mtable"
      headerClassName="trow mrow"
      columns={COLUMNS}
      loading={p.loading}
      rowsLabel="Message rows"
      count={items.length}
      rowHeight={ROW_HEIGHT}
      renderRow={renderRow}
      onRange={p.onRange}
      empty={p.empty}
      activeIndex={cursor}
      idPrefix="msg-row"
    />
  );
});

interface RowViewProps {
  row: MessageRow;
  index: number;
  isCursor: boolean;
  isOpen: boolean;
  onClick(e: MouseEvent<HTMLDivElement>): void;
}

const RowView = memo(function RowView({ row: r, index, isCursor, isOpen, onClick }: RowViewProps) {
  return (
    <div
      id={`msg-row-${index}`}
      className={`trow mrow${isCursor ? ' cursor' : ''}${isOpen ? ' open' : ''}`}
      role="row"
      aria-selected={isOpen}
      data-id={r.id}
      data-index={index}
      data-side={r.side}
      data-direction={r.direction}
      data-kind={r.kind}
      onClick={onClick}
    >
      <span role="cell" className="c-time mono">
        {clockTime(r.at)}
      </span>
      <span role="cell" className={`c-hop side-${r.side}`}>
        {hop(r)}
      </span>
      <span role="cell" className={`c-kind kind-${r.kind}`}>
        {KIND_LABEL[r.kind]}
      </span>
      <span role="cell" className="c-method mono" title={r.method}>
        {r.method ?? ''}
      </span>
      <span role="cell" className="c-id mono">
        {r.jsonrpcId === undefined ? '' : String(r.jsonrpcId)}
      </span>
      <span role="cell" className="c-size mono">
        {size(r.size)}
      </span>
      <span role="cell" className="c-preview mono">
        {r.preview}
      </span>
    </div>
  );
});
