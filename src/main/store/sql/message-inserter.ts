// Writes captured messages (sql/encode-message.ts) with statements prepared once per connection. The key
// is at_ms * 1024 + n like an execution's (execution-ids.ts), guessed from this process's last insert and
// corrected when another process took it first; a message already stored (a crash journal replayed) is
// skipped by its uuid.
import type Database from 'better-sqlite3';
import type { EncodedMessage } from './encoded';
import { MAX_SLOT_OVERFLOW, SLOT, slotBase } from './execution-ids';

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
      m.uuid, this.gatewayId(m.gateway, m.atMs), m.sessionKey, m.atMs, m.side, m.direction, m.peer, m.messageKind, m.method, m.jsonrpcId,
      m.size, m.executionUuid, m.truncated, m.body,
    ];
    let base = slotBase(m.atMs);
    let candidate = this.lastKey !== undefined && this.lastKey >= base && this.lastKey < base + SLOT - 1 ? this.lastKey + 1 : base;
    for (let attempt = 0; ; attempt++) {
      try {
        const changes = this.st.insert.run(candidate, ...values).changes;
        if (changes === 0) return false;
        this.lastKey = candidate;
        return true;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY' || attempt >= MAX_SLOT_OVERFLOW + 2) throw err;
        const last = this.st.lastInSlot.get(base, base + SLOT) as number | null;
        if (last !== null && last >= base + SLOT - 1) {
          base += SLOT;
          const next = this.st.lastInSlot.get(base, base + SLOT) as number | null;
          candidate = next === null ? base : next + 1;
        } else {
          candidate = last === null ? base : last + 1;
        }
      }
    }
  }
}
