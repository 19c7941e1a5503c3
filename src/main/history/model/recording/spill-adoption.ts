// Naming and adoption of spill files: `<db>.spill-<pid>-<token>.jsonl`, and of journals (journal.ts):
// `<db>.journal-<pid>-<token>.jsonl`, same format. A file whose process is gone is renamed to a spill
// file of this process (atomic, so two survivors never both drain it) and drained.
import { randomBytes } from 'node:crypto';
import { readdirSync, renameSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { makePrivate } from '../../../files/private-files';

/** Spill files of recorders alive in this process: never adopted by a sibling recorder. */
const live = new Set<string>();

export function newSpillPath(dbPath: string): string {
  const path = `${dbPath}.spill-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`;
  live.add(path);
  return path;
}

export function newJournalPath(dbPath: string): string {
  const path = `${dbPath}.journal-${process.pid}-${randomBytes(4).toString('hex')}.jsonl`;
  live.add(path);
  return path;
}

export function releaseSpillPath(path: string): void {
  live.delete(path);
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function adoptOrphanSpills(dbPath: string): string[] {
  const dir = dirname(dbPath);
  const prefixes = [`${basename(dbPath)}.spill-`, `${basename(dbPath)}.journal-`];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const adopted: string[] = [];
  for (const name of names) {
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (!prefix || !name.endsWith('.jsonl')) continue;
    const path = join(dir, name);
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (live.has(path) || !Number.isInteger(pid)) continue;
    if (pid !== process.pid && processAlive(pid)) continue;
    const mine = newSpillPath(dbPath);
    try {
      renameSync(path, mine);
      makePrivate(mine); // left 0644 by an older version
      adopted.push(mine);
    } catch {
      releaseSpillPath(mine); // another process adopted it first
    }
  }
  return adopted;
}
