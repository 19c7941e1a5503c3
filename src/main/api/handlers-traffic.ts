// Handlers of the Traffic and Sinks procedures (history reads, replay, bulk replay, sink events). They
// read the SQLite store through SqliteTraffic, or the traffic port a store brings (PostgreSQL); without
// a store only the generic history procedures work and the rest say so.
import { ApiError } from '../../shared/api/envelope';
import type { HistoryFilter } from '../../shared/api/models';
import type { SqliteHistoryWriter } from '../history/sqlite';
import type { HandlerDeps } from './handlers';
import type { Handlers } from './dispatcher';
import { SqliteTraffic } from '../services/traffic/sqlite-traffic';
import { TrafficService } from '../services/traffic/traffic-service';
import type { TrafficPort } from '../services/traffic/traffic-port';

/** Beyond this, an export belongs to the CLI (`interceptor-console export`), which streams to a file. */
const MAX_EXPORT = 20_000;

export function buildTrafficHandlers(d: HandlerDeps): Handlers {
  const { history, manager } = d;
  // Read per call: Settings may switch the store while the console runs. Built once per store in use.
  let built: { key: unknown; traffic: TrafficPort | undefined; service: TrafficService | undefined } | undefined;
  const current = () => {
    const sqlite = (history.recorder as Partial<SqliteHistoryWriter>).store;
    const key = history.traffic ?? sqlite;
    if (!built || built.key !== key) {
      const traffic = history.traffic ?? (history.kind === 'sqlite' && sqlite ? new SqliteTraffic(sqlite.db) : undefined);
      const service = traffic
        ? new TrafficService({ manager, traffic, recorder: history.recorder, emit: d.emit, liveHost: (id) => manager.replayHost(id) })
        : undefined;
      built = { key, traffic, service };
    }
    return built;
  };
  const store = (): TrafficPort => current().traffic ?? unavailable();
  const replays = (): TrafficService => current().service ?? unavailable();

  return {
    'history.query': ({ filter, cursor, limit }) => {
      const { traffic } = current();
      return traffic ? traffic.page(filter, cursor, limit) : history.query(filter, cursor, limit);
    },
    'history.count': ({ filter, cap }) => store().count(filter, cap),
    'history.facets': () => store().facets(),
    'history.detail': async ({ executionId }) => {
      const { traffic } = current();
      const detail = await (traffic ? traffic.detail(executionId) : history.detail(executionId));
      if (!detail) throw new ApiError('not_found', `No recorded execution with id "${executionId}".`);
      return detail as never;
    },
    'history.export': async ({ filter, ids }) => {
      if (ids) return store().exportIds(ids);
      const { traffic } = current();
      if (traffic) tooMany(await traffic.count(filter, MAX_EXPORT), filter);
      return history.exportJsonl(filter);
    },

    'replay.run': ({ executionId, mode, params }) => replays().replay(executionId, mode, params) as never,
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
