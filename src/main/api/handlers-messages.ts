// Handlers of the Messages view: reads of the messages table through the store's queries (the same code
// the bench measures). Without the SQLite store there are no messages, and the procedures say so.
import { ApiError } from '../../shared/api/envelope';
import type { SqliteRecorder } from '../store';
import { getMessage, listMessages, listMessageSessions, messageMethods } from '../store';
import type { HandlerDeps } from './handlers';
import type { Handlers } from './dispatcher';
import { QueryError } from '../store';

export function buildMessagesHandlers(d: HandlerDeps): Handlers {
  const recorder = d.history.recorder as Partial<SqliteRecorder>;
  const db = () => {
    if (d.history.kind !== 'sqlite' || !recorder.store) {
      throw new ApiError('unavailable', 'Messages are recorded in the SQLite history store, which is not in use (app.info says why).');
    }
    return recorder.store.db;
  };
  return {
    'messages.sessions': ({ gateway }) => listMessageSessions(db(), gateway),
    'messages.query': ({ filter, cursor, limit }) => {
      try {
        const { session, ...rest } = filter;
        return listMessages(db(), { ...rest, ...(session !== undefined ? { session } : {}) }, { cursor: cursor ?? null, limit });
      } catch (err) {
        if (err instanceof QueryError) throw new ApiError('invalid_input', err.message);
        throw err;
      }
    },
    'messages.detail': ({ id }) => {
      const message = getMessage(db(), id);
      if (!message) throw new ApiError('not_found', `No recorded message with id "${id}" (retention may have deleted it).`);
      return message;
    },
    'messages.methods': ({ gateway }) => messageMethods(db(), gateway),
  };
}
