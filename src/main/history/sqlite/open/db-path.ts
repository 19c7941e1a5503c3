// Where the history file is: an explicit --db wins, then INTERCEPTOR_CONSOLE_DB, then the file in
// the data folder the caller passes in (Electron's userData, the CLI's default data folder, a test dir).
import { join, resolve } from 'node:path';

export const DB_ENV_VAR = 'INTERCEPTOR_CONSOLE_DB';
export const DB_FILE_NAME = 'history.db';

export function resolveDbPath(options: { flag?: string; dataDir: string; env?: NodeJS.ProcessEnv }): string {
  if (options.flag) return resolve(options.flag);
  const fromEnv = (options.env ?? process.env)[DB_ENV_VAR];
  if (fromEnv) return resolve(fromEnv);
  return join(options.dataDir, DB_FILE_NAME);
}
