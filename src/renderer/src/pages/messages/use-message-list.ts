// The Messages table's data: the store's keyset pages for a filter, newest first, grown page by page as
// the user scrolls, and topped up live when the gateway's messages arrive (pushed `messages.new`). Paused,
// the view stays as it is and only counts what arrived. Nothing is filtered in the page.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MessageFilter, MessageRow } from '../../../../shared/api/models-messages';
import { useApi } from '../../api/context';

const PAGE_SIZE = 200;
const MORE_SIZE = 400;

interface State {
  key: string;
  items: MessageRow[];
  nextCursor: string | null;
  loading: boolean;
  loadingMore: boolean;
  error: unknown;
}

const EMPTY: State = { key: '', items: [], nextCursor: null, loading: true, loadingMore: false, error: null };

export interface MessageList {
  items: MessageRow[];
  loading: boolean;
  hasMore: boolean;
  error: unknown;
  /** Messages announced while paused. */
  pending: number;
  loadMore(): void;
}

/** `onPrepend(n)`: n rows were added above the current ones (the table keeps the view in place). */
export function useMessageList(filter: MessageFilter | undefined, paused: boolean, onPrepend: (rows: number) => void): MessageList {
  const api = useApi();
  const [state, setState] = useState<State>(EMPTY);
  const [pending, setPending] = useState(0);
  const key = filter ? JSON.stringify(filter) : '';
  const generation = useRef(0);
  const current = useRef(state);
  current.current = state;
  const prepend = useRef(onPrepend);
  prepend.current = onPrepend;
  const refreshing = useRef<{ again: boolean } | null>(null);

  useEffect(() => {
    const g = ++generation.current;
    setPending(0);
    if (!key) {
      setState({ ...EMPTY, loading: false });
      return;
    }
    setState((s) => ({ ...EMPTY, items: s.items }));
    api.call('messages.query', { filter: JSON.parse(key) as MessageFilter, limit: PAGE_SIZE }).then(
      (page) => g === generation.current && setState({ key, items: page.items, nextCursor: page.nextCursor, loading: false, loadingMore: false, error: null }),
      (error: unknown) => g === generation.current && setState({ ...EMPTY, key, loading: false, error }),
    );
  }, [api, key]);

  const loadMore = useCallback(() => {
    const s = current.current;
    if (!key || s.loading || s.loadingMore || !s.nextCursor) return;
    const g = generation.current;
    setState({ ...s, loadingMore: true });
    api.call('messages.query', { filter: JSON.parse(key) as MessageFilter, cursor: s.nextCursor, limit: MORE_SIZE }).then(
      (page) => g === generation.current && setState((prev) => ({ ...prev, items: [...prev.items, ...page.items], nextCursor: page.nextCursor, loadingMore: false })),
      (error: unknown) => g === generation.current && setState((prev) => ({ ...prev, loadingMore: false, error })),
    );
  }, [api, key]);

  // A filter the store checks row by row answers in bounded steps: a page that came back short with a
  // cursor means "read this far, nothing more yet"; go on until a page is full or the history ends.
  useEffect(() => {
    if (!state.loading && !state.loadingMore && !state.error && state.nextCursor && state.items.length < PAGE_SIZE && state.key === key) loadMore();
  }, [state, key, loadMore]);

  // New messages go on top: the first page, keeping what is newer than the current top row.
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
        const page = await api.call('messages.query', { filter: JSON.parse(key) as MessageFilter, limit: PAGE_SIZE });
        if (g !== generation.current) return;
        const s = current.current;
        const top = s.items[0]?.id;
        const at = top === undefined ? -1 : page.items.findIndex((r) => r.id === top);
        if (at === 0) continue;
        if (at > 0) {
          setState({ ...s, items: [...page.items.slice(0, at), ...s.items] });
          prepend.current(at);
        } else {
          setState({ ...s, key, items: page.items, nextCursor: page.nextCursor, loading: false, error: null });
        }
      } while (refreshing.current.again);
    } catch {
      // Retried by the next event; the rows shown stay valid.
    } finally {
      refreshing.current = null;
    }
  }, [api, key]);

  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const gateway = filter?.gateway;
  useEffect(
    () =>
      api.onEvent((event) => {
        const arrived = event.type === 'messages.new' && event.gateway === gateway ? event.count : -1;
        const pruned = event.type === 'tables.changed' && event.tables.includes('messages') && event.tables.includes('executions');
        if (arrived < 0 && !pruned) return;
        if (pausedRef.current) setPending((n) => n + Math.max(0, arrived));
        else void refreshTop();
      }),
    [api, refreshTop, gateway],
  );

  const wasPaused = useRef(paused);
  useEffect(() => {
    if (wasPaused.current && !paused) {
      setPending(0);
      void refreshTop();
    }
    wasPaused.current = paused;
  }, [paused, refreshTop]);

  return { items: state.items, loading: state.loading || state.key !== key, hasMore: state.nextCursor !== null, error: state.error, pending, loadMore };
}
