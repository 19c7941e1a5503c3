// Where a headless gateway records: the SQLite store (src/main/history/sqlite) at --db, $INTERCEPTOR_CONSOLE_DB, or
// the data folder's history.db; or, when that value is a postgres:// connection string, a PostgreSQL
// database shared with the team's other gateways (src/main/history/postgres).
// SQLite: WAL mode lets the app read the same file while this process writes it. With the journal on, a
// record the gateway confirmed to its client survives a SIGKILL of this process: it is on disk (next to
// the database) within the journal interval, and the next recorder opened on the database replays it.
// PostgreSQL: records are batched and retried while the server is unreachable; the gateway keeps no state
// of its own, so it can be restarted or scaled out (the insert is idempotent by execution id). The journal
// is a local file in the data folder (named after the server and database, never the password): a killed
// gateway's unwritten records are written by the next one started on the same data folder.
// Both: the redaction at rest the caller passes (the CLI reads the one saved in the data folder's settings,
// the console's Settings → History) is applied to every execution and captured message before it is
// written, as the console does for its own. Read by the caller: the gateway does not depend on the app's
// services (test/gateway/layering.test.ts).
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Recorder } from '../../../shared/trace/execution';
import type { Redactor } from '../../history/model/redaction/redactor';
import { DB_ENV_VAR, defaultDataDir, SqliteHistoryWriter, resolveDbPath } from '../../history/sqlite';
import { isPostgresUrl, openPgHistoryWriter, redactUrl } from '../../history/postgres';

/** Names this process's rows in a shared database (a container's hostname is rarely telling). */
export const HOST_ENV_VAR = 'INTERCEPTOR_CONSOLE_HOST';

export interface GatewayHistoryOptions {
  journal?: boolean;
  /** The data folder whose journals apply (and history.db, without a --db); default $INTERCEPTOR_CONSOLE_DATA or the app's. */
  dataDir?: string;
  /** The redaction at rest to apply to every record (the data folder's saved setting; see savedRedactor). */
  redactor?: Redactor;
}

/** Opens the history this headless gateway records into (SQLite or PostgreSQL) and returns its writer. */
export async function openGatewayHistory(dbPath: string | undefined, log: (line: string) => void, options: GatewayHistoryOptions = {}): Promise<Recorder> {
  const dataDir = options.dataDir ?? defaultDataDir();
  const redactor = options.redactor;
  const target = dbPath ?? process.env[DB_ENV_VAR];
  if (isPostgresUrl(target)) {
    const host = process.env[HOST_ENV_VAR]?.trim();
    const recorder = await openPgHistoryWriter(target.trim(), {
      onError: (message) => log(`recording: ${message}`),
      ...(host ? { host } : {}),
      ...(redactor ? { redactor } : {}),
      ...(options.journal !== false ? { journal: { path: pgJournalPath(target, dataDir) } } : {}),
    });
    log(`recording to PostgreSQL at ${redactUrl(target)}${redactor ? ' (redacting as set in the data folder)' : ''}`);
    return recorder;
  }
  const path = resolveDbPath({ ...(dbPath ? { flag: dbPath } : {}), dataDir });
  const recorder = SqliteHistoryWriter.open(path, {
    journal: options.journal !== false,
    onError: (message) => log(`recording: ${message}`),
    ...(redactor ? { redactor } : {}),
  });
  log(`recording to ${path}${redactor ? ' (redacting as set in the data folder)' : ''}`);
  return recorder;
}

/** `<data folder>/postgres-<hash of host, port and database>`: one journal family per shared database. */
function pgJournalPath(url: string, dir: string): string {
  const u = new URL(url.trim());
  const id = createHash('sha256').update(`${u.hostname}:${u.port}${u.pathname}`).digest('hex').slice(0, 12);
  mkdirSync(dir, { recursive: true, mode: 0o700 }); // an existing folder is left as it is (the user may have named it)
  return join(dir, `postgres-${id}`);
}
