// The Traffic table's data: the store's keyset pages of executions for a filter, live (live-list/).
import { useCallback } from 'react';
import type { HistoryFilter } from '../../../../../shared/api/models';
import type { TrafficRow } from '../../../../../shared/api/models-execution';
import type { ApiEvent } from '../../../../../shared/api/events';
import { useApi } from '../../../api/context';
import { useLiveKeysetList, type LiveKeysetList } from '../../../live-list/use-live-keyset-list';

export type TrafficList = LiveKeysetList<TrafficRow>;

/** New executions are announced with their count; an import or a prune says only that the table changed. */
function arrivals(event: ApiEvent): number {
  if (event.type === 'executions.new') return event.count;
  return event.type === 'tables.changed' && event.tables.includes('executions') ? 0 : -1;
}

/** `onPrepend(n)`: n rows were added above the current ones (the table keeps the view in place). */
export function useTrafficList(filter: HistoryFilter, paused: boolean, onPrepend: (rows: number) => void): TrafficList {
  const api = useApi();
  const fetchPage = useCallback(
    async (f: HistoryFilter, limit: number, cursor?: string) => {
      const page = await api.call('history.query', { filter: f, limit, ...(cursor ? { cursor } : {}) });
      return { items: page.items, nextCursor: page.nextCursor };
    },
    [api],
  );
  return useLiveKeysetList({ filter, paused, onPrepend, fetchPage, pageSize: 100, moreSize: 300, arrivals });
}
