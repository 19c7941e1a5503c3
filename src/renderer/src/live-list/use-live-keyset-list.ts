// A live list over a store's keyset pages (Traffic's executions, Messages): newest first, grown page by page
// as the user scrolls, and topped up when pushed events announce new rows. Paused, the view stays frozen and
// only counts what arrived. Every row comes from a store query; nothing is filtered here. The lists differ
// only in the procedure they page through and the events that concern them, which their callers pass in.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiEvent } from '../../../shared/api/events';
import { useApi } from '../api/context';
import { mergeFirstPage } from './merge-first-page';

export interface KeysetPage<Row> {
  items: Row[];
  nextCursor: string | null;
}

export interface LiveKeysetListOptions<Row, Filter> {
  /** What to list; undefined lists nothing (e.g. no gateway to show yet). Compared by its JSON. */
  filter: Filter | undefined;
  paused: boolean;
  /** n rows were added above the current ones (the table keeps the view in place). */
  onPrepend(rows: number): void;
  /** One page of the store's query, newest first; no cursor asks for the first page. */
  fetchPage(filter: Filter, limit: number, cursor?: string): Promise<KeysetPage<Row>>;
  pageSize: number;
  /** Rows asked for by each further page (scrolling down). */
  moreSize: number;
  /** How many new rows a pushed event announces: 0 when it says only that the rows changed, -1 when it does not concern this list. */
  arrivals(event: ApiEvent): number;
  /**
   * For stores that check a filter row by row and answer in bounded steps: a short page with a cursor means
   * "read this far, nothing more yet", so the next page is asked at once until the first page is full.
   */
  fillShortPages?: boolean;
}

export interface LiveKeysetList<Row> {
  items: Row[];
  loading: boolean;
  loadingMore: boolean;
  hasMore: boolean;
  error: unknown;
  /** Rows announced while paused (shown on the Resume button). */
  pending: number;
  /** Asks for the next (older) page; ignored while one is loading or at the end. */
  loadMore(): void;
  /** Reloads from the first page (after an import). */
  reload(): void;
}

interface State<Row> {
  /** The filter (JSON) whose pages `items` hold. */
  key: string;
  items: Row[];
  nextCursor: string | null;
  loading: boolean;
  loadingMore: boolean;
  error: unknown;
}

function empty<Row>(): State<Row> {
  return { key: '', items: [], nextCursor: null, loading: true, loadingMore: false, error: null };
}

export function useLiveKeysetList<Row extends { id: string }, Filter>(options: LiveKeysetListOptions<Row, Filter>): LiveKeysetList<Row> {
  const { filter, paused, pageSize, moreSize, fillShortPages = false } = options;
  const api = useApi();
  const [state, setState] = useState<State<Row>>(empty);
  const [pending, setPending] = useState(0);
  const [epoch, setEpoch] = useState(0);
  const key = filter === undefined ? '' : JSON.stringify(filter);
  const generation = useRef(0);
  const current = useRef(state);
  current.current = state;
  const refreshing = useRef<{ again: boolean } | null>(null);
  // The caller's functions, read when used: a caller need not memoize them, and a new one never restarts a load.
  const latest = useRef(options);
  latest.current = options;
  const fetchPage = useCallback((cursor: string | undefined, limit: number) => latest.current.fetchPage(JSON.parse(key) as Filter, limit, cursor), [key]);

  // A new filter (or a reload) starts over from the first page; the rows shown stay (marked loading) until it comes.
  useEffect(() => {
    const g = ++generation.current;
    setPending(0);
    if (!key) {
      setState({ ...empty<Row>(), loading: false });
      return;
    }
    setState((s) => ({ ...empty<Row>(), key: s.key, items: s.items }));
    fetchPage(undefined, pageSize).then(
      (page) => g === generation.current && setState({ key, items: page.items, nextCursor: page.nextCursor, loading: false, loadingMore: false, error: null }),
      (error: unknown) => g === generation.current && setState({ ...empty<Row>(), key, loading: false, error }),
    );
  }, [key, epoch, fetchPage, pageSize]);

  const loadMore = useCallback(() => {
    const s = current.current;
    if (!key || s.loading || s.loadingMore || !s.nextCursor) return;
    const g = generation.current;
    setState({ ...s, loadingMore: true });
    fetchPage(s.nextCursor, moreSize).then(
      (page) =>
        g === generation.current && setState((prev) => ({ ...prev, items: [...prev.items, ...page.items], nextCursor: page.nextCursor, loadingMore: false })),
      (error: unknown) => g === generation.current && setState((prev) => ({ ...prev, loadingMore: false, error })),
    );
  }, [key, fetchPage, moreSize]);

  useEffect(() => {
    if (fillShortPages && !state.loading && !state.loadingMore && !state.error && state.nextCursor && state.items.length < pageSize && state.key === key)
      loadMore();
  }, [fillShortPages, state, key, pageSize, loadMore]);

  // New rows: fetch the first page again and merge it in (one refresh at a time; events meanwhile ask for one more).
  const refreshTop = useCallback(async () => {
    if (!key) return;
    if (refreshing.current) {
      refreshing.current.again = true;
      return;
    }
    refreshing.current = { again: false };
    try {
      do {
        refreshing.current.again = false;
        const g = generation.current;
        const page = await fetchPage(undefined, pageSize);
        if (g !== generation.current) return;
        const s = current.current;
        const merged = mergeFirstPage(s.items, page.items);
        if (merged === 'unchanged') continue;
        if (merged === 'start-over') {
          setState({ ...s, key, items: page.items, nextCursor: page.nextCursor, loading: false, error: null });
        } else {
          setState({ ...s, items: merged.items });
          latest.current.onPrepend(merged.added);
        }
      } while (refreshing.current.again);
    } catch {
      // A failed refresh is retried by the next event; the rows shown stay valid.
    } finally {
      refreshing.current = null;
    }
  }, [key, fetchPage, pageSize]);

  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEffect(
    () =>
      api.onEvent((event) => {
        const arrived = latest.current.arrivals(event);
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
