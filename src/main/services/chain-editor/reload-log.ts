// The record of config reloads: every `gateway.reloaded` the manager pushes is appended to
// `<dataDir>/reloads/<gateway>.jsonl`, so "when did this chain change, and did sessions survive it" is
// answerable after the fact (and after a restart of the app).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReloadRecord } from '../../../shared/api/models-chain';
import type { Logger } from '../environment';
import { appendPrivateFile, ensurePrivateDir } from '../../files/private-files';

const KEEP = 200;

export class ReloadLog {
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly logger: Logger,
  ) {
    this.dir = join(dataDir, 'reloads');
  }

  append(id: string, record: ReloadRecord): void {
    try {
      ensurePrivateDir(this.dir);
      appendPrivateFile(this.file(id), `${JSON.stringify(record)}\n`, { existing: 'fix' });
    } catch (err) {
      // A lost log line must not fail a save that already happened; say so instead.
      this.logger.warn(`could not record the reload of gateway ${id}`, err);
    }
  }

  /** Newest first, at most the last 200. Unreadable lines are skipped, not fatal. */
  list(id: string): ReloadRecord[] {
    const file = this.file(id);
    if (!existsSync(file)) return [];
    const out: ReloadRecord[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as ReloadRecord;
        if (typeof r.at === 'string' && typeof r.restarted === 'boolean') out.push({ at: r.at, restarted: r.restarted });
      } catch {
        // a torn last line after a crash
      }
    }
    return out.slice(-KEEP).reverse();
  }

  private file(id: string): string {
    return join(this.dir, `${id}.jsonl`);
  }
}
