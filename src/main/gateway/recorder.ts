// Where a headless gateway records: the SQLite store (src/main/store) at --db, $INTERCEPTOR_CONSOLE_DB, or
// the data folder's history.db. WAL mode lets the app read the same file while this process writes it.
// With the journal on, a record the gateway confirmed to its client survives a SIGKILL of this process:
// it is on disk (next to the database) within the journal interval, and the next recorder opened on the
// database replays it.
import type { Recorder } from '../../shared/trace/execution';
import { defaultDataDir, SqliteRecorder, resolveDbPath } from '../store';

export async function openGatewayRecorder(dbPath: string | undefined, log: (line: string) => void, options: { journal?: boolean } = {}): Promise<Recorder> {
  const path = resolveDbPath({ ...(dbPath ? { flag: dbPath } : {}), dataDir: defaultDataDir() });
  const recorder = SqliteRecorder.open(path, { journal: options.journal !== false, onError: (message) => log(`recording: ${message}`) });
  log(`recording to ${path}`);
  return recorder;
}
