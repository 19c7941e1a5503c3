// The PostgreSQL history the console runs on: the console reads what every gateway of a team records
// there, and its own gateways record there too. Two pools: the recorder's (batches never wait behind a
// Traffic query) and the readers'. Redaction at rest applies to what the recorder writes from the
// moment it is set.
import type pg from 'pg';
import type { RecordingHistory } from '../model/history-store';
import { RedactionSetting } from '../model/redaction/redaction-setting';
import { openPgHistoryWriter, openPgPool, PgHistoryStore } from './pg-history-store';
import type { PgHistoryWriter } from './pg-history-writer';

export interface PgRecordingHistoryOptions {
  redactPaths?: string[];
  onError?(message: string): void;
}

export class PgHistory extends PgHistoryStore implements RecordingHistory {
  private constructor(
    pool: pg.Pool,
    url: string,
    readonly recorder: PgHistoryWriter,
    private readonly redaction: RedactionSetting,
  ) {
    super(pool, url);
  }

  static async openRecording(url: string, options: PgRecordingHistoryOptions = {}): Promise<PgHistory> {
    const pool = await openPgPool(url);
    const redaction = new RedactionSetting(options.redactPaths ?? []);
    const recorder = await openPgHistoryWriter(url, {
      redactor: redaction.delegate,
      ...(options.onError ? { onError: options.onError } : {}),
    }).catch(async (err: unknown) => {
      await pool.end().catch(() => {});
      throw err;
    });
    return new PgHistory(pool, url, recorder, redaction);
  }

  setRedaction(paths: string[]): void {
    this.redaction.set(paths);
  }

  get redactor() {
    return this.redaction.redactor;
  }

  override async close(): Promise<void> {
    await this.recorder.close();
    await super.close();
  }
}
