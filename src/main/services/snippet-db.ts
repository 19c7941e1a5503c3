// The history a "Connect a client" stdio snippet records into. An SQLite file is passed as it is. A
// PostgreSQL connection string is passed without its password: a snippet is pasted into client config
// files and its command line is visible to every local user (`ps`), so the password goes into an
// owner-only file (0600, in the 0700 data folder) that the launched gateway reads with
// --db-password-file. (PGPASSWORD would do too, but a snippet carrying it would carry the password.)
import { isPostgresUrl, splitPassword } from '../history/postgres';
import { keepPasswordPrivately } from './history-switch/history-location';

export interface SnippetDb {
  args: string[];
  /** Said next to the snippet when the password is kept out of it. */
  note?: string;
}

export function snippetDb(dbPath: string, dataDir: string): SnippetDb {
  if (!isPostgresUrl(dbPath)) return { args: ['--db', dbPath] };
  if (splitPassword(dbPath).password === undefined) {
    return {
      args: ['--db', dbPath.trim()],
      note: 'The connection string has no password: the gateway uses $PGPASSWORD (or ~/.pgpass) of the environment the client starts it in.',
    };
  }
  const { url, passwordFile: file } = keepPasswordPrivately(dataDir, dbPath);
  return {
    args: ['--db', url, '--db-password-file', file!],
    note: `The PostgreSQL password is not in this snippet: the gateway reads it from ${file} (readable by this user only). To keep it elsewhere, remove --db-password-file and set PGPASSWORD in the client's environment for this server.`,
  };
}
