// The Messages table's data: the store's keyset pages of one gateway's messages for a filter, live
// (live-list/); no gateway yet, no rows.
import { useCallback } from 'react';
import type { MessageFilter, MessageRow } from '../../../../shared/api/models-messages';
import type { ApiEvent } from '../../../../shared/api/events';
import { useApi } from '../../api/context';
import { useLiveKeysetList, type LiveKeysetList } from '../../live-list/use-live-keyset-list';

export type MessageList = LiveKeysetList<MessageRow>;

/** `onPrepend(n)`: n rows were added above the current ones (the table keeps the view in place). */
export function useMessageList(filter: MessageFilter | undefined, paused: boolean, onPrepend: (rows: number) => void): MessageList {
  const api = useApi();
  const gateway = filter?.gateway;
  const fetchPage = useCallback(
    (f: MessageFilter, limit: number, cursor?: string) => api.call('messages.query', { filter: f, limit, ...(cursor ? { cursor } : {}) }),
    [api],
  );
  // This gateway's new messages are announced with their count; a prune of the history (executions and
  // their messages) says only that the tables changed.
  const arrivals = useCallback(
    (event: ApiEvent) => {
      if (event.type === 'messages.new') return event.gateway === gateway ? event.count : -1;
      return event.type === 'tables.changed' && event.tables.includes('messages') && event.tables.includes('executions') ? 0 : -1;
    },
    [gateway],
  );
  // The store checks some message filters row by row and answers those in bounded steps.
  return useLiveKeysetList({ filter, paused, onPrepend, fetchPage, pageSize: 200, moreSize: 400, arrivals, fillShortPages: true });
}
