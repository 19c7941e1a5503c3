// The Traffic table: a header and a windowed list of executions (only the rows in view are in the DOM).
// One row: time, gateway, method, target, outcome, blocking interceptor, duration, badges. Scrolling mounts
// and updates rows every frame, so a row is cheap: its text is formatted once per row object, its handlers
// are the table's (one pair, shared by every row), and it has as few elements as its cells need.
import { forwardRef, memo, useCallback, useRef, type ChangeEvent, type MouseEvent } from 'react';
import type { TrafficRow } from '../../../../../shared/api/models-execution';
import type { VirtualListHandle } from '../../../components/VirtualList';
import { WindowedTable, type TableColumn } from '../../../components/WindowedTable';
import { blocker, clockTime, duration, OUTCOME_LABEL, TOOL_ERROR_TITLE } from '../format';

export const ROW_HEIGHT = 30;

const COLUMNS: readonly TableColumn[] = [
  { title: '', className: 'c-check' },
  { title: 'Time', className: 'c-time' },
  { title: 'Gateway', className: 'c-gateway' },
  { title: 'Method', className: 'c-method' },
  { title: 'Target', className: 'c-target' },
  { title: 'Outcome', className: 'c-outcome' },
  { title: 'Blocked by', className: 'c-blocker-h' },
  { title: 'Duration', className: 'c-duration' },
  { title: 'Badges', className: 'c-badges' },
];

export interface TrafficTableProps {
  items: TrafficRow[];
  cursor: number;
  openId?: string;
  checked: ReadonlySet<string>;
  loading: boolean;
  onCursor(index: number): void;
  /** Opens an execution by id (not by index: rows may be inserted above while the pointer is on one). */
  onOpen(id: string): void;
  onToggle(id: string): void;
  onRange(first: number, last: number): void;
  empty: React.ReactNode;
}

export const TrafficTable = forwardRef<VirtualListHandle, TrafficTableProps>(function TrafficTable(p, ref) {
  const { items, cursor, openId, checked } = p;
  // The latest callbacks, read by the shared handlers: the handlers stay the same object across renders,
  // so a row is re-rendered only when its own data, cursor, open or checked state changes.
  const props = useRef(p);
  props.current = p;
  const onRowClick = useCallback((e: MouseEvent<HTMLDivElement>) => {
    const row = e.currentTarget;
    // The checkbox cell selects; it does not move the cursor nor open the detail.
    if ((e.target as HTMLElement).closest('.c-check')) return;
    const { onCursor, onOpen } = props.current;
    onCursor(Number(row.dataset.index));
    onOpen(row.dataset.id!);
  }, []);
  const onCheck = useCallback((e: ChangeEvent<HTMLInputElement>) => {
    const id = e.currentTarget.closest<HTMLElement>('.trow')?.dataset.id;
    if (id) props.current.onToggle(id);
  }, []);

  const renderRow = useCallback(
    (i: number) => {
      const r = items[i]!;
      return (
        <RowView row={r} index={i} isCursor={i === cursor} isOpen={r.id === openId} isChecked={checked.has(r.id)} onClick={onRowClick} onCheck={onCheck} />
      );
    },
    [items, cursor, openId, checked, onRowClick, onCheck],
  );

  return (
    <WindowedTable
      ref={ref}
      label="Executions"
      headerClassName="trow"
      columns={COLUMNS}
      loading={p.loading}
      rowsLabel="Execution rows"
      count={items.length}
      rowHeight={ROW_HEIGHT}
      renderRow={renderRow}
      onRange={p.onRange}
      empty={p.empty}
      activeIndex={cursor}
      idPrefix="exec-row"
    />
  );
});

/** A row's text, formatted once per row object (rows are immutable: a page of them is never edited). */
interface RowText {
  time: string;
  blocker: string;
  blockerTitle: string;
  duration: string;
}
const texts = new WeakMap<TrafficRow, RowText>();
function textOf(r: TrafficRow): RowText {
  let t = texts.get(r);
  if (!t) {
    const b = r.blockedBy;
    t = {
      time: clockTime(r.startedAt),
      blocker: b ? (b.phase ? `${b.interceptor} · ${b.phase}` : b.interceptor) : '',
      blockerTitle: blocker(b),
      duration: duration(r.durationMs),
    };
    texts.set(r, t);
  }
  return t;
}

interface RowViewProps {
  row: TrafficRow;
  index: number;
  isCursor: boolean;
  isOpen: boolean;
  isChecked: boolean;
  onClick(e: MouseEvent<HTMLDivElement>): void;
  onCheck(e: ChangeEvent<HTMLInputElement>): void;
}

/** One row; skipped on re-render when its own data did not change (a page appended below, the cursor elsewhere). */
const RowView = memo(function RowView({ row: r, index, isCursor, isOpen, isChecked, onClick, onCheck }: RowViewProps) {
  const t = textOf(r);
  return (
    <div
      id={`exec-row-${index}`}
      className={`trow${isCursor ? ' cursor' : ''}${isOpen ? ' open' : ''}`}
      role="row"
      aria-selected={isOpen}
      data-id={r.id}
      data-index={index}
      onClick={onClick}
    >
      <span role="cell" className="c-check">
        <input type="checkbox" aria-label={`Select execution ${r.id}`} checked={isChecked} onChange={onCheck} />
      </span>
      <span role="cell" className="c-time mono">
        {t.time}
      </span>
      <span role="cell" className="c-gateway" title={r.host ? `${r.gateway} on ${r.host}` : r.gateway}>
        {r.gateway}
      </span>
      <span role="cell" className="c-method mono">
        {r.event}
      </span>
      <span role="cell" className="c-target" title={r.target}>
        {r.target ?? ''}
      </span>
      {/* The cell is the pill: one element fewer per row. */}
      <span role="cell" className={`c-outcome pill ${r.outcome}`}>
        {OUTCOME_LABEL[r.outcome]}
      </span>
      <span role="cell" className="c-blocker" title={t.blockerTitle}>
        {t.blocker}
      </span>
      <span role="cell" className="c-duration mono">
        {t.duration}
      </span>
      <span role="cell" className="c-badges">
        {r.toolError && (
          <span className="mini tool-error" title={TOOL_ERROR_TITLE}>
            tool error
          </span>
        )}
        {r.outcome === 'mutated' && <span className="mini mutated">mutated</span>}
        {r.shadow && <span className="mini shadow">shadow</span>}
        {r.simulated && <span className="mini simulated">simulated</span>}
        {r.replayOf && <span className="mini replay">replay</span>}
      </span>
    </div>
  );
});
