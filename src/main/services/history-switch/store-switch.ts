// Settings → Data switches the console's history in-process: the new store is opened first (migrated, for
// PostgreSQL), and only once it answers is it put in use, the choice saved and every view told to reload.
// A store that cannot be opened changes nothing: the error says why and that the current one stays.
import { join } from 'node:path';
import { ApiError } from '../../../shared/api/envelope';
import type { ApiEvent } from '../../../shared/api/events';
import { isPostgresUrl, redactUrl } from '../../history/postgres';
import type { AppEnvironment } from '../environment';
import type { RecordingHistory } from '../../history/model/history-store';
import type { SettingsStore } from '../settings';
import { keepPasswordPrivately, openHistoryAt } from './history-location';
import type { SwitchableHistory } from './switchable-history';

export type StoreTarget = { kind: 'sqlite' } | { kind: 'postgres'; url: string };

export interface StoreSwitchDeps {
  env: AppEnvironment;
  settings: SettingsStore;
  history: SwitchableHistory;
  emit(event: ApiEvent): void;
}

export const shownLocation = (location: string) => (isPostgresUrl(location) ? redactUrl(location) : location);

export async function switchHistoryStore(d: StoreSwitchDeps, target: StoreTarget): Promise<{ kind: 'sqlite' | 'postgres'; dbPath: string }> {
  const { env } = d;
  if (env.dbOverride) {
    throw new ApiError(
      'conflict',
      `This console's history was named at start by ${env.dbOverride}, which wins over Settings: start it without ${env.dbOverride} to choose the history here.`,
    );
  }
  const location = target.kind === 'postgres' ? target.url.trim() : join(env.dataDir, 'history.db');
  if (target.kind === 'postgres' && !isPostgresUrl(location)) {
    throw new ApiError('invalid_input', 'Not a PostgreSQL connection string: use postgres://USER:PASSWORD@HOST:PORT/DATABASE.');
  }
  const current = shownLocation(env.dbPath);
  let next: RecordingHistory;
  try {
    next = await openHistoryAt(location, env.logger, { redactPaths: d.settings.get().redactPaths });
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).replaceAll(location, shownLocation(location));
    throw new ApiError('failed', `Could not switch the history to ${shownLocation(location)}: ${reason}. The console keeps using ${current}.`);
  }
  try {
    const saved = target.kind === 'postgres' ? keepPasswordPrivately(env.dataDir, location) : undefined;
    d.settings.update({ historyStore: saved ? { kind: 'postgres', url: saved.url } : { kind: 'sqlite' } });
  } catch (err) {
    await next.close().catch(() => undefined);
    throw new ApiError(
      'failed',
      `Could not save the history choice (${err instanceof Error ? err.message : String(err)}). The console keeps using ${current}.`,
    );
  }
  await d.history.switchTo(next);
  env.dbPath = location;
  env.logger.info(`history store switched to ${shownLocation(location)} (was ${current})`);
  // Every view reads the store anew: lists, counters, facets, the Settings facts.
  d.emit({ type: 'tables.changed', tables: ['gateways', 'sessions', 'executions', 'steps', 'sink_events', 'replays', 'messages', 'settings'] });
  return { kind: next.kind === 'postgres' ? 'postgres' : 'sqlite', dbPath: shownLocation(location) };
}
