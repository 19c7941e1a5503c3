// Where a headless gateway records: the SQLite store (src/main/store) at --db, $INTERCEPTOR_CONSOLE_DB, or
// the data folder's history.db.
import type { Recorder } from '../../shared/trace/execution';

export async function openGatewayRecorder(dbPath: string | undefined, log: (line: string) => void): Promise<Recorder | null> {
  void dbPath;
  log('recording: the SQLite store is not available in this build; executions are not persisted');
  return null;
}
