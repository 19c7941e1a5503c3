// Writes captured messages (sql/encode-message.ts) with statements prepared once per connection. The key
// is at_ms * 1024 + n like an execution's (execution-ids.ts), guessed from this process's last insert and
// corrected when another process took it first; a message already stored (a crash journal replayed) is
// skipped by its uuid.
import type Database from 'better-sqlite3';
import type { EncodedMessage } from '../../model/encode/encoded';
import { insertUnderSlotKey } from './execution-ids';

export class MessageInserter {
  private lastKey: number | undefined;
  private readonly st;

  constructor(
    db: Database.Database,
    private readonly gatewayId: (name: string, at: number) => number,
  ) {
    this.st = {
      insert: db.prepare(
        `INSERT INTO messages (id, uuid, gateway_id, session_key, at_ms, side, direction, peer, kind, method, jsonrpc_id, size, execution_uuid, truncated, body)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (uuid) DO NOTHING`,
      ),
      lastInSlot: db.prepare('SELECT max(id) FROM messages WHERE id >= ? AND id < ?').pluck(),
    };
  }

  resetCaches(): void {
    this.lastKey = undefined;
  }

  /** False: a message with this uuid is stored already. */
  write(m: EncodedMessage): boolean {
    const values = [
      m.uuid,
      this.gatewayId(m.gateway, m.atMs),
      m.sessionKey,
      m.atMs,
      m.side,
      m.direction,
      m.peer,
      m.messageKind,
      m.method,
      m.jsonrpcId,
      m.size,
      m.executionUuid,
      m.truncated,
      m.body,
    ];
    const key = insertUnderSlotKey(
      m.atMs,
      this.lastKey,
      (k) => this.st.insert.run(k, ...values).changes,
      (from, to) => this.st.lastInSlot.get(from, to) as number | null,
    );
    if (key === undefined) return false;
    this.lastKey = key;
    return true;
  }
}
