// Handlers of the Traffic and Sinks procedures (history reads, replay, bulk replay, sink events), through
// the history service over the history in use, whichever engine keeps it. Without a store (history kept in
// memory) the reads of the generic history procedures work and the Traffic-only ones say so.
import { ApiError } from '../../shared/api/envelope';
import type { HistoryFilter } from '../../shared/api/models';
import type { HandlerDeps } from './handlers';
import type { Handlers } from './dispatcher';
import { TrafficService } from '../services/traffic/traffic-service';
import type { HistoryService } from '../services/history/history-service';

/** Beyond this, an export belongs to the CLI (`interceptor-console export`), which streams to a file. */
const MAX_EXPORT = 20_000;

export function buildTrafficHandlers(d: HandlerDeps): Handlers {
  const { history, manager } = d;
  const replayService = new TrafficService({ manager, history, recorder: history.recorder, emit: d.emit, liveHost: (id) => manager.replayHost(id) });
  // Read per call: Settings may switch the store while the console runs (to or from one in memory).
  const store = (): HistoryService => (history.kind === 'memory' ? unavailable() : history);
  const replays = (): TrafficService => (history.kind === 'memory' ? unavailable() : replayService);

  return {
    'history.query': ({ filter, cursor, limit }) => history.page(filter, cursor, limit),
    'history.count': ({ filter, cap }) => store().count(filter, cap),
    'history.facets': () => store().facets(),
    'history.detail': async ({ executionId }) => {
      const detail = await history.detail(executionId);
      if (!detail) throw new ApiError('not_found', `No recorded execution with id "${executionId}".`);
      return detail;
    },
    'history.export': async ({ filter, ids }) => {
      if (ids) return store().exportIds(ids);
      tooMany(await history.count(filter, MAX_EXPORT), filter);
      return history.exportFiltered(filter);
    },

    'replay.run': ({ executionId, mode, params }) => replays().replay(executionId, mode, params),
    'replay.bulkStart': ({ filter, mode, max }) => replays().startBulk(filter, mode, max),
    'replay.bulkPlan': ({ filter, max }) => store().bulkPlan(filter, max),
    'replay.bulkStatus': ({ jobId }) => replays().bulkStatus(jobId),
    'replay.bulkCancel': ({ jobId }) => replays().cancelBulk(jobId),

    'sinks.query': ({ cursor, limit, ...filter }) => store().sinkEvents({ ...filter, ...(cursor ? { cursor } : {}), limit }),
  };
}

function tooMany(count: { count: number; capped: boolean }, filter: HistoryFilter): void {
  if (!count.capped) return;
  const narrowed = Object.values(filter).some((v) => v !== undefined && v !== '');
  throw new ApiError(
    'invalid_input',
    `More than ${MAX_EXPORT.toLocaleString('en-US')} executions match${narrowed ? ' this filter' : ''}: narrow the filter (e.g. a time range), or export everything with \`interceptor-console export --db <file>\`.`,
  );
}

function unavailable(): never {
  throw new ApiError(
    'unavailable',
    'The history store is not in use (history is kept in memory only; app.info says why), so this procedure has nothing to read.',
  );
}
