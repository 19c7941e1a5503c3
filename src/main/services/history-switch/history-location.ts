// Where the console's history is, as chosen in Settings → Data, and opening it. The choice is saved in
// settings.json without the password: a PostgreSQL password goes into an owner-only file (0600) in the
// data folder (0700), next to what it protects (the bearer tokens, the local history), and the headless
// gateways of the "Connect a client" snippets read that same file (--db-password-file). Not PGPASSWORD
// alone: a desktop app started from a menu has no shell to set it in; not asked at every start: the
// console's own gateways must record from the moment it starts. A URL saved without a password still
// works with PGPASSWORD or ~/.pgpass. --db and INTERCEPTOR_CONSOLE_DB win over this choice.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../../files/private-files';
import type { RecordingHistory } from '../../history/model/history-store';
import { isPostgresUrl, PgHistory, splitPassword, withPasswordFromFile } from '../../history/postgres';
import { SqliteHistory } from '../../history/sqlite';
import type { Logger } from '../environment';
import { settingsPath } from '../settings';

/** `<dataDir>/postgres-<hash of user, server and database>.password`: the name says nothing about the server. */
export function passwordFilePath(dataDir: string, url: string): string {
  const u = new URL(splitPassword(url).url);
  const id = createHash('sha256').update(`${u.username}@${u.hostname}:${u.port}${u.pathname}`).digest('hex').slice(0, 12);
  return join(dataDir, `postgres-${id}.password`);
}

/** Writes the URL's password (if any) to its 0600 file; returns the URL without it and the file. */
export function keepPasswordPrivately(dataDir: string, url: string): { url: string; passwordFile?: string } {
  const split = splitPassword(url);
  if (split.password === undefined) return { url: split.url };
  const file = passwordFilePath(dataDir, url);
  writePrivateFileAtomic(file, `${split.password}\n`);
  return { url: split.url, passwordFile: file };
}

/** The PostgreSQL history saved in Settings (URL with its password from the private file), or undefined for the SQLite file. */
export function savedHistoryUrl(dataDir: string): string | undefined {
  const path = settingsPath(dataDir);
  if (!existsSync(path)) return undefined;
  let saved: { historyStore?: { kind?: string; url?: string } };
  try {
    saved = JSON.parse(readFileSync(path, 'utf8')) as typeof saved;
  } catch {
    return undefined; // the settings store sets a damaged file aside and says so
  }
  const url = saved.historyStore?.kind === 'postgres' ? saved.historyStore.url : undefined;
  if (!isPostgresUrl(url)) return undefined;
  const file = passwordFilePath(dataDir, url);
  return existsSync(file) ? withPasswordFromFile(url, file) : url;
}

/** Opens the history at a location (file path or postgres:// URL); throws, saying why, when it cannot. */
export async function openHistoryAt(location: string, logger: Logger, options: { redactPaths?: string[] } = {}): Promise<RecordingHistory> {
  const opts = { ...options, onError: (message: string) => logger.warn(`recording: ${message}`) };
  if (!isPostgresUrl(location)) return SqliteHistory.open(location, opts);
  const history = await PgHistory.openRecording(location, opts);
  logger.info(`history store: PostgreSQL at ${history.location}`);
  return history;
}
