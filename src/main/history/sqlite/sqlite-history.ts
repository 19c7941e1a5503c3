// The SQLite history the console runs on: the store port on the batched recorder's own connection (one
// connection, opened with the store's checks: a foreign or corrupt file is refused, never overwritten),
// the recorder, and redaction at rest applied to what the recorder writes from the moment it is set.
import type { RecordingHistory } from '../model/history-store';
import { RedactionSetting } from '../model/redaction/redaction-setting';
import { SqliteHistoryStore } from './sqlite-history-store';
import { SqliteHistoryWriter } from './writer/sqlite-history-writer';

export interface RecordingHistoryOptions {
  redactPaths?: string[];
  /** A record the store could not write (it is retried or spilled): said, never thrown at the gateway. */
  onError?(message: string): void;
}

export class SqliteHistory extends SqliteHistoryStore implements RecordingHistory {
  private constructor(
    readonly recorder: SqliteHistoryWriter,
    private readonly redaction: RedactionSetting,
  ) {
    // The store is the recorder's and is closed with it.
    super(recorder.store);
  }

  static open(dbPath: string, options: RecordingHistoryOptions = {}): SqliteHistory {
    const redaction = new RedactionSetting(options.redactPaths ?? []);
    const recorder = SqliteHistoryWriter.open(dbPath, {
      redactor: redaction.delegate,
      // The app's gateways record too: a killed app must not lose what its clients were answered.
      journal: true,
      ...(options.onError ? { onError: options.onError } : {}),
    });
    return new SqliteHistory(recorder, redaction);
  }

  setRedaction(paths: string[]): void {
    this.redaction.set(paths);
  }

  get redactor() {
    return this.redaction.redactor;
  }

  override async close(): Promise<void> {
    await this.recorder.close();
  }
}
