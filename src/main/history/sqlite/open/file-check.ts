// Looks at a file's first bytes before SQLite ever touches it: a file that is not an SQLite
// database is refused without being opened, so it cannot be modified by accident.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { StoreOpenError } from './store-open-error';

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export type FileState = 'absent' | 'empty' | 'sqlite';

export function inspectFile(path: string): FileState {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) {
      throw new StoreOpenError('not-a-file', path, `${path} is not a regular file; pass the path of a history database file with --db.`);
    }
    size = st.size;
  } catch (err) {
    if (err instanceof StoreOpenError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
    throw new StoreOpenError('io', path, `cannot read ${path}: ${(err as Error).message}`);
  }
  if (size === 0) return 'empty';
  const header = Buffer.alloc(SQLITE_MAGIC.length);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    readSync(fd, header, 0, header.length, 0);
  } catch (err) {
    throw new StoreOpenError('io', path, `cannot read ${path}: ${(err as Error).message}`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (!header.equals(SQLITE_MAGIC)) {
    throw new StoreOpenError(
      'not-sqlite',
      path,
      `${path} is not an SQLite database, so it is not an Interceptor Console history. It was left untouched; pass another path with --db (or INTERCEPTOR_CONSOLE_DB).`,
    );
  }
  return 'sqlite';
}
