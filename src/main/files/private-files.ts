// The data folder holds bearer tokens (gateway configs), recorded traffic (history.db) and whatever
// the recorder could not write yet (spill, dead-letter and journal files): on POSIX it is the user's
// alone, 0700, and every file in it 0600, whatever the umask. Every file the app or the CLI creates
// goes through these helpers, so a new kind of file is private by default:
//   writePrivateFileAtomic(path, text)   a whole file (configs, settings): temp file + rename
//   appendPrivateFile(path, text)        a log or queue (reload logs, dead letters, spill files)
//   openPrivateFile(path, flags)         an fd to stream into (exports)
//   ensurePrivateDir(dir)                the data folder and its subfolders
//   makePrivate(path)                    a file left 0644 by an older version (or created by SQLite)
// Windows has no mode bits (a file is private to its user profile already): there these are plain
// file operations.
import { appendFileSync, chmodSync, fchmodSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/**
 * Creates `dir` (and missing parents, which XDG also wants 0700) and makes `dir` itself 0700 even
 * when it already existed (a data folder created 0755 by an older version). Only for folders the
 * app owns: never call it on a folder the user named (the parent of a `--db FILE`).
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (posix) chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Creates a missing folder 0700 (with its missing parents); an existing folder is left as it is. */
export function createPrivateDirIfMissing(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Sets 0600 on an existing file; a missing file, or one owned by someone else, is left alone. */
export function makePrivate(path: string): void {
  if (!posix) return;
  try {
    chmodSync(path, PRIVATE_FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw err;
  }
}

/**
 * Replaces `path` with `data` atomically (a crash leaves the old file or the new one, never half),
 * the new file 0600 from its first byte: the temp file is created with that mode, and rename keeps it.
 */
export function writePrivateFileAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data, { mode: PRIVATE_FILE_MODE });
    // A temp file left 0644 by a crashed older version keeps its mode under writeFileSync.
    makePrivate(tmp);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Appends to `path`, creating it 0600. `existing: 'fix'` also fixes the mode of a file created before. */
export function appendPrivateFile(path: string, data: string, options: { existing?: 'fix' | 'keep' } = {}): void {
  appendFileSync(path, data, { mode: PRIVATE_FILE_MODE });
  if (options.existing === 'fix') makePrivate(path);
}

/** Opens `path` for writing with `flags` ('w', 'wx', 'a'...), 0600 even if it existed; the caller closes the fd. */
export function openPrivateFile(path: string, flags: string): number {
  const fd = openSync(path, flags, PRIVATE_FILE_MODE);
  if (posix) fchmodSync(fd, PRIVATE_FILE_MODE);
  return fd;
}
