// The Traffic table: a header and a windowed list of executions (only the rows in view are in the DOM).
// One row: time, gateway, method, target, outcome, blocking interceptor, duration, badges.
import { forwardRef, useCallback } from 'react';
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
        <div
          id={`exec-row-${i}`}
          className={`trow outcome-${r.outcome}${i === cursor ? ' cursor' : ''}${r.id === openId ? ' open' : ''}`}
          role="row"
          aria-selected={r.id === openId}
          data-id={r.id}
          onClick={() => {
            onCursor(i);
            onOpen(r.id);
          }}
        >
          <span role="cell" className="c-check" onClick={(e) => e.stopPropagation()}>
            <input type="checkbox" aria-label={`Select execution ${r.id}`} checked={checked.has(r.id)} onChange={() => onToggle(r.id)} />
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
