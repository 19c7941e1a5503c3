// The Traffic table: a header and a windowed list of executions (only the rows in view are in the DOM).
// One row: time, gateway, method, target, outcome, blocking interceptor, duration, badges.
import { forwardRef, memo, useCallback } from 'react';
import type { TrafficRow } from '../../../../../shared/api/models-traffic';
import { VirtualList, type VirtualListHandle } from '../../../components/VirtualList';
import { blocker, clockTime, duration, OUTCOME_LABEL } from '../format';

export const ROW_HEIGHT = 30;

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
  const { items, cursor, openId, checked, onCursor, onOpen, onToggle } = p;
  const renderRow = useCallback(
    (i: number) => {
      const r = items[i]!;
      return (
        <RowView
          row={r}
          index={i}
          isCursor={i === cursor}
          isOpen={r.id === openId}
          isChecked={checked.has(r.id)}
          onCursor={onCursor}
          onOpen={onOpen}
          onToggle={onToggle}
        />
      );
    },
    [items, cursor, openId, checked, onCursor, onOpen, onToggle],
  );

  const rowKey = useCallback((i: number) => items[i]?.id ?? i, [items]);

  return (
    <div className={`ttable${p.loading ? ' stale' : ''}`} role="table" aria-label="Executions" aria-busy={p.loading}>
      <div className="trow thead" role="row">
        <span role="columnheader" className="c-check" />
        <span role="columnheader" className="c-time">Time</span>
        <span role="columnheader" className="c-gateway">Gateway</span>
        <span role="columnheader" className="c-method">Method</span>
        <span role="columnheader" className="c-target">Target</span>
        <span role="columnheader" className="c-outcome">Outcome</span>
        <span role="columnheader" className="c-blocker-h">Blocked by</span>
        <span role="columnheader" className="c-duration">Duration</span>
        <span role="columnheader" className="c-badges">Badges</span>
      </div>
      <VirtualList
        ref={ref}
        className="tbody"
        label="Execution rows"
        count={items.length}
        rowHeight={ROW_HEIGHT}
        renderRow={renderRow}
        rowKey={rowKey}
        onRange={p.onRange}
        empty={p.empty}
        activeIndex={cursor}
        idPrefix="exec-row"
      />
    </div>
  );
});

interface RowViewProps {
  row: TrafficRow;
  index: number;
  isCursor: boolean;
  isOpen: boolean;
  isChecked: boolean;
  onCursor(index: number): void;
  onOpen(id: string): void;
  onToggle(id: string): void;
}

/** One row; skipped on re-render when its own data did not change (a page appended below, the cursor elsewhere). */
const RowView = memo(function RowView({ row: r, index, isCursor, isOpen, isChecked, onCursor, onOpen, onToggle }: RowViewProps) {
  return (
    <div
      id={`exec-row-${index}`}
      className={`trow outcome-${r.outcome}${isCursor ? ' cursor' : ''}${isOpen ? ' open' : ''}`}
      role="row"
      aria-selected={isOpen}
      data-id={r.id}
      onClick={() => {
        onCursor(index);
        onOpen(r.id);
      }}
    >
      <span role="cell" className="c-check" onClick={(e) => e.stopPropagation()}>
        <input type="checkbox" aria-label={`Select execution ${r.id}`} checked={isChecked} onChange={() => onToggle(r.id)} />
      </span>
      <span role="cell" className="c-time mono">
        {clockTime(r.startedAt)}
      </span>
      <span role="cell" className="c-gateway" title={r.gateway}>
        {r.gateway}
      </span>
      <span role="cell" className="c-method mono">
        {r.event}
      </span>
      <span role="cell" className="c-target" title={r.target}>
        {r.target ?? ''}
      </span>
      <span role="cell" className="c-outcome">
        <span className={`pill ${r.outcome}`}>{OUTCOME_LABEL[r.outcome]}</span>
      </span>
      <span role="cell" className="c-blocker" title={blocker(r.blockedBy)}>
        {r.blockedBy ? `${r.blockedBy.interceptor}${r.blockedBy.phase ? ` · ${r.blockedBy.phase}` : ''}` : ''}
      </span>
      <span role="cell" className="c-duration mono">
        {duration(r.durationMs)}
      </span>
      <span role="cell" className="c-badges">
        {r.outcome === 'mutated' && <span className="mini mutated">mutated</span>}
        {r.shadow && <span className="mini shadow">shadow</span>}
        {r.simulated && <span className="mini simulated">simulated</span>}
        {r.replayOf && <span className="mini replay">replay</span>}
      </span>
    </div>
  );
});
