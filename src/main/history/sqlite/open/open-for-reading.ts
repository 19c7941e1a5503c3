// Opening a history file only to read it (`history`, `export`): where the file can be written it is
// opened as usual (an older schema is upgraded); on a read-only path (a mounted backup, another
// user's file, a read-only folder) it is opened read-only instead of failing. SQLite cannot open a
// WAL file read-only in place when its folder is read-only and no -shm file is there: then a private
// copy of the file is read, and removed on close.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { openStore, type Store } from './open-store';
import { StoreOpenError } from './store-open-error';

const readOnly = (err: unknown) => err instanceof StoreOpenError && err.kind === 'read-only';

export function openStoreForReading(path: string, options: { onReadOnly?: (how: 'in place' | 'copy') => void } = {}): Store {
  const file = resolve(path);
  try {
    return openStore(file, { create: false });
  } catch (err) {
    if (!readOnly(err)) throw err;
  }
  try {
    const store = openStore(file, { create: false, readonly: true });
    options.onReadOnly?.('in place');
    return store;
  } catch (err) {
    if (!readOnly(err)) throw err;
  }
  // mkdtemp creates the folder 0700: the copy of the history is as private as the data folder.
  const dir = mkdtempSync(join(tmpdir(), 'ic-read-only-'));
  try {
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    if (existsSync(`${file}-wal`)) copyFileSync(`${file}-wal`, `${copy}-wal`);
    const store = openStore(copy, { create: false, readonly: true });
    options.onReadOnly?.('copy');
    return {
      db: store.db,
      path: file,
      close() {
        store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    if (err instanceof StoreOpenError) throw new StoreOpenError(err.kind, file, err.message.split(join(dir, basename(file))).join(file));
    throw err;
  }
}
