// Handlers of the Messages view: reads of the recorded messages through the store port (history-store.ts),
// whichever engine keeps them (SQLite or PostgreSQL). Without a store (history kept in memory) there are
// no messages, and the procedures say so.
import { ApiError } from '../../shared/api/envelope';
import type { HistoryStore } from '../history/model/history-store';
import { QueryError } from '../history/model/query-error';
import type { HandlerDeps } from './handlers';
import type { Handlers } from './dispatcher';

export function buildMessagesHandlers(d: HandlerDeps): Handlers {
  const store = (): HistoryStore => {
    if (d.history.kind === 'memory') {
      throw new ApiError('unavailable', 'Messages are recorded in the history store (SQLite or PostgreSQL), which is not in use (app.info says why).');
    }
    return d.history.history;
  };
  return {
    // As for the messages themselves: the gateway's own entry is dated without its health pings unless asked.
    'messages.sessions': ({ gateway, healthPings }) => store().listMessageSessions(gateway, { hideHealthPings: healthPings !== true }),
    'messages.query': async ({ filter, cursor, limit }) => {
      try {
        const { session, healthPings, ...rest } = filter;
        // Health pings are hidden unless asked for: every interceptor server is pinged every 15 s.
        return await store().listMessages(
          { ...rest, ...(session !== undefined ? { session } : {}), hideHealthPings: healthPings !== true },
          { cursor: cursor ?? null, limit },
        );
      } catch (err) {
        if (err instanceof QueryError) throw new ApiError('invalid_input', err.message);
        throw err;
      }
    },
    'messages.detail': async ({ id }) => {
      const message = await store().getMessage(id);
      if (!message) throw new ApiError('not_found', `No recorded message with id "${id}" (retention may have deleted it).`);
      return message;
    },
    'messages.methods': ({ gateway }) => store().messageMethods(gateway),
  };
}
