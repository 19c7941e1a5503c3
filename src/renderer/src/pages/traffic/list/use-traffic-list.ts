// The Traffic table's data: the store's keyset pages for a filter, newest first, grown page by page as
// the user scrolls, and topped up live when executions arrive (pushed events). Paused, the view stays
// frozen and only counts what arrived. Every row comes from a store query; nothing is filtered here.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HistoryFilter } from '../../../../../shared/api/models';
import type { TrafficRow } from '../../../../../shared/api/models-traffic';
import { useApi } from '../../../api/context';

export const PAGE_SIZE = 100;
const MORE_SIZE = 300;

export interface TrafficList {
  items: TrafficRow[];
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  error: unknown;
  /** Executions announced while paused (shown on the Resume button). */
  pending: number;
  /** Asks for the next (older) page; ignored while one is loading or at the end. */
  loadMore(): void;
  /** Reloads from the first page (after an import). */
  reload(): void;
}

interface State {
  /** The filter (JSON) whose pages `items` hold. */
  key: string;
  items: TrafficRow[];
  nextCursor: string | null;
  loading: boolean;
  loadingMore: boolean;
  error: unknown;
}

const EMPTY: State = { key: '', items: [], nextCursor: null, loading: true, loadingMore: false, error: null };

/** `onPrepend(n)`: n rows were added above the current ones (the table keeps the view in place). */
export function useTrafficList(filter: HistoryFilter, paused: boolean, onPrepend: (rows: number) => void): TrafficList {
  const api = useApi();
  const [state, setState] = useState<State>(EMPTY);
  const [pending, setPending] = useState(0);
  const [epoch, setEpoch] = useState(0);
  const key = JSON.stringify(filter);
  const generation = useRef(0);
  const current = useRef(state);
  current.current = state;
  const refreshing = useRef<{ again: boolean } | null>(null);
  const prepend = useRef(onPrepend);
  prepend.current = onPrepend;

  // A new filter (or a reload) starts over from the first page.
  useEffect(() => {
    const g = ++generation.current;
    setState((s) => ({ ...EMPTY, key: s.key, items: s.items.length > 0 && g > 1 ? s.items : [] }));
    setPending(0);
    api.call('history.query', { filter: JSON.parse(key) as HistoryFilter, limit: PAGE_SIZE }).then(
      (page) => {
        if (g !== generation.current) return;
        setState({ key, items: page.items as TrafficRow[], nextCursor: page.nextCursor, loading: false, loadingMore: false, error: null });
      },
      (error: unknown) => {
        if (g !== generation.current) return;
        setState({ ...EMPTY, key, loading: false, error });
      },
    );
  }, [api, key, epoch]);

  const loadMore = useCallback(() => {
    const s = current.current;
    if (s.loading || s.loadingMore || !s.nextCursor) return;
    const g = generation.current;
    setState({ ...s, loadingMore: true });
    api.call('history.query', { filter: JSON.parse(key) as HistoryFilter, cursor: s.nextCursor, limit: MORE_SIZE }).then(
      (page) => {
        if (g !== generation.current) return;
        setState((prev) => ({ ...prev, items: [...prev.items, ...(page.items as TrafficRow[])], nextCursor: page.nextCursor, loadingMore: false }));
      },
      (error: unknown) => {
        if (g === generation.current) setState((prev) => ({ ...prev, loadingMore: false, error }));
      },
    );
  }, [api, key]);

  // New rows go on top: fetch the first page and keep what is newer than the current top row.
  const refreshTop = useCallback(async () => {
    if (refreshing.current) {
      refreshing.current.again = true;
      return;
    }
    refreshing.current = { again: false };
    try {
      do {
        refreshing.current.again = false;
        const g = generation.current;
        const page = await api.call('history.query', { filter: JSON.parse(key) as HistoryFilter, limit: PAGE_SIZE });
        if (g !== generation.current) return;
        const fresh = page.items as TrafficRow[];
        const s = current.current;
        const shown = new Set(s.items.map((r) => r.id));
        const added = fresh.filter((r) => !shown.has(r.id)).length;
        if (s.items.length > 0 && added === 0) continue;
        // A row can land below the current top (a call that started earlier but was recorded later): merge the
        // whole first page, not only what sorts above the top row, or that row stays missing until a reload.
        if (s.items.length > 0 && added < fresh.length) {
          const fromPage = new Set(fresh.map((r) => r.id));
          setState({ ...s, items: [...fresh, ...s.items.filter((r) => !fromPage.has(r.id))] });
          prepend.current(added);
        } else {
          // More arrived than one page holds (or the list was empty): start over from this page.
          setState({ ...s, key, items: fresh, nextCursor: page.nextCursor, loading: false, error: null });
        }
      } while (refreshing.current.again);
    } catch {
      // A failed refresh is retried by the next event; the rows shown stay valid.
    } finally {
      refreshing.current = null;
    }
  }, [api, key]);

  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEffect(
    () =>
      api.onEvent((event) => {
        const arrived = event.type === 'executions.new' ? event.count : event.type === 'tables.changed' && event.tables.includes('executions') ? 0 : -1;
        if (arrived < 0) return;
        if (pausedRef.current) setPending((n) => n + arrived);
        else void refreshTop();
      }),
    [api, refreshTop],
  );

  // Resuming catches up at once.
  const wasPaused = useRef(paused);
  useEffect(() => {
    if (wasPaused.current && !paused) {
      setPending(0);
      void refreshTop();
    }
    wasPaused.current = paused;
  }, [paused, refreshTop]);

  const reload = useCallback(() => setEpoch((e) => e + 1), []);

  return {
    items: state.items,
    // Loading from the very render where the filter changed (the effect that asks the store runs after
    // it): the rows shown are marked stale at once, and nothing keyed on the new filter (its count) is
    // asked before its first page, which would otherwise queue behind that count on the core's thread.
    loading: state.loading || state.key !== key,
    loadingMore: state.loadingMore,
    hasMore: state.nextCursor !== null,
    error: state.error,
    pending,
    loadMore,
    reload,
  };
}
