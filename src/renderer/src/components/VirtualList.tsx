// A windowed list: fixed row height, only the rows in view (plus a small overscan) exist in the DOM, so
// a list of any length costs the same to render and to scroll. The scroll position is read once per
// animation frame; rows are positioned by one transform on their container.
import { forwardRef, memo, useCallback, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps {
  count: number;
  rowHeight: number;
  /** Renders row `index`; must return an element with a stable key-free root (the list sets the key). */
  renderRow(index: number): ReactNode;
  /**
   * A stable key per row (e.g. its id): rows inserted above keep their elements. Default: the row's
   * position in the window, so scrolling updates the text and attributes of the same elements in place
   * and never creates, removes nor moves one (measured cheaper than id keys or recycled slots when a
   * wheel turn scrolls a whole window of rows per frame).
   */
  rowKey?(index: number): string | number;
  /** Told which rows are in view whenever that changes (to load the next page near the end). */
  onRange?(first: number, last: number): void;
  /** Extra rows rendered above and below the view. */
  overscan?: number;
  className?: string;
  label: string;
  /** Shown when count is 0. */
  empty?: ReactNode;
  /** Row index whose element has id `${idPrefix}-${index}`, for aria-activedescendant. */
  activeIndex?: number;
  idPrefix?: string;
}

export interface VirtualListHandle {
  /** Scrolls the least amount that brings row `index` fully into view. */
  scrollToIndex(index: number): void;
  /** Keeps what the user is looking at in place after `rows` rows were added above it. */
  shiftBy(rows: number): void;
  readonly element: HTMLDivElement | null;
}

export const VirtualList = forwardRef<VirtualListHandle, VirtualListProps>(function VirtualList(props, ref) {
  const { count, rowHeight, overscan = 8 } = props;
  const scroller = useRef<HTMLDivElement>(null);
  // The first row in view, not the pixel offset: scrolling within a row re-renders nothing.
  const [top, setTop] = useState(0);
  const [height, setHeight] = useState(600);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    setHeight(el.clientHeight);
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const onScroll = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      if (scroller.current) setTop(Math.floor(scroller.current.scrollTop / rowHeight));
    });
  }, [rowHeight]);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  useImperativeHandle(
    ref,
    () => ({
      scrollToIndex(index) {
        const el = scroller.current;
        if (!el) return;
        const top = index * rowHeight;
        if (top < el.scrollTop) el.scrollTop = top;
        else if (top + rowHeight > el.scrollTop + el.clientHeight) el.scrollTop = top + rowHeight - el.clientHeight;
      },
      shiftBy(rows) {
        const el = scroller.current;
        if (el && el.scrollTop > 0) el.scrollTop += rows * rowHeight;
      },
      get element() {
        return scroller.current;
      },
    }),
    [rowHeight],
  );

  const first = Math.max(0, top - overscan);
  const visibleLast = Math.min(count - 1, top + Math.ceil(height / rowHeight));
  const last = Math.min(count - 1, visibleLast + overscan);

  const { onRange } = props;
  const firstVisible = top;
  useEffect(() => {
    onRange?.(Math.min(firstVisible, Math.max(0, count - 1)), Math.max(visibleLast, 0));
  }, [onRange, firstVisible, visibleLast, count]);

  const rows: ReactNode[] = [];
  for (let i = first; i <= last; i++) rows.push(<Row key={props.rowKey ? props.rowKey(i) : i - first} index={i} render={props.renderRow} />);

  return (
    <div
      ref={scroller}
      className={`vlist ${props.className ?? ''}`}
      onScroll={onScroll}
      role="rowgroup"
      aria-label={props.label}
      aria-rowcount={count}
      aria-activedescendant={props.activeIndex !== undefined && props.idPrefix ? `${props.idPrefix}-${props.activeIndex}` : undefined}
      style={{ overflowY: 'auto', position: 'relative', contain: 'strict' }}
    >
      {count === 0 && props.empty}
      <div style={{ height: count * rowHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: 0, left: 0, right: 0, transform: `translateY(${first * rowHeight}px)`, willChange: 'transform' }}>{rows}</div>
      </div>
    </div>
  );
});

/** A row re-renders only when its index or renderer changes (the renderer changes when the data does). */
const Row = memo(function Row({ index, render }: { index: number; render(index: number): ReactNode }) {
  return <>{render(index)}</>;
});
