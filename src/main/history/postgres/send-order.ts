// Which records the PostgreSQL history writer may send now, with several batches in flight at once. Executions
// are independent rows (each stored once by its id, whichever batch commits first), but a few rows are
// written more than once and the last record must win: a gateway's config, a session's record (an upsert
// each); and a session's captured messages take identity keys that must follow recording order (the
// Messages view orders messages of one millisecond by key). So a record that writes such a row, a message
// of a session whose earlier messages are in flight, or an execution of a session whose record is in
// flight, waits until the batch holding them is done, and batches are cut from the head of the queue, never
// past a record that waits: what a reader sees keeps the order the gateway recorded in.
// Batches that failed on a lost connection go back in front of the queue, oldest first, whole.
import type { PgItem } from './batch-insert';

export interface Batch {
  readonly seq: number;
  items: PgItem[];
  /** What later records of this batch's keys must not overtake (gateway and session rows, a session's messages). */
  readonly keys: ReadonlySet<string>;
}

/** The row a record writes that a later record of the same key must not overtake. */
function writes(item: PgItem): string | undefined {
  if (item.kind === 'gateway') return `g\u0000${item.name}`;
  if (item.kind === 'session') return `s\u0000${item.gateway}\u0000${item.key}`;
  if (item.kind === 'message') return `m\u0000${item.gateway}\u0000${item.sessionKey ?? ''}`;
  return undefined;
}

/** An execution waits for its session's record, so a reader never sees its session row missing or stale. */
function needs(item: PgItem): string | undefined {
  return item.kind === 'execution' && item.sessionKey !== null ? `s\u0000${item.gateway}\u0000${item.sessionKey}` : undefined;
}

export class SendOrder {
  private queue: PgItem[] = [];
  private readonly retry: Batch[] = [];
  private readonly flying = new Set<Batch>();
  /** Items of flying batches already stored (a batch written in halves): not to be counted again. */
  private readonly stored = new WeakSet<PgItem>();
  private seq = 0;
  /** Accepted and neither stored nor given up. */
  unsettled = 0;

  constructor(private readonly batchSize: number) {}

  push(item: PgItem): void {
    this.queue.push(item);
    this.unsettled++;
  }

  /** Records not in flight: new ones and those waiting for a retry. */
  get waiting(): number {
    let n = this.queue.length;
    for (const b of this.retry) n += b.items.length;
    return n;
  }

  get inFlight(): number {
    return this.flying.size;
  }

  /**
   * The next batch to send, now in flight, or undefined: nothing waits, only a partial batch waits and
   * `partial` is false, or the head of the queue waits for a row in flight.
   */
  next(partial: boolean): Batch | undefined {
    const held = new Set<string>();
    for (const b of this.flying) for (const k of b.keys) held.add(k);
    const again = this.retry[0];
    if (again) {
      if (again.items.some((i) => held.has(writes(i) ?? needs(i) ?? ''))) return undefined;
      this.retry.shift();
      this.flying.add(again);
      return again;
    }
    if (this.queue.length === 0 || (!partial && this.queue.length < this.batchSize)) return undefined;
    const keys = new Set<string>();
    let n = 0;
    for (; n < this.queue.length && n < this.batchSize; n++) {
      const item = this.queue[n]!;
      const w = writes(item);
      const dep = w ?? needs(item);
      if (dep !== undefined && held.has(dep)) break;
      if (w !== undefined) keys.add(w);
    }
    if (n === 0) return undefined;
    const batch: Batch = { seq: ++this.seq, items: this.queue.splice(0, n), keys };
    this.flying.add(batch);
    return batch;
  }

  /** Items of a flying batch are stored (all of it, or part of one written in halves). */
  settled(items: readonly PgItem[]): void {
    for (const item of items) this.stored.add(item);
    this.unsettled -= items.length;
  }

  /** The batch is no longer in flight; `unwritten` (after a lost connection) goes back in front, in order. */
  finished(batch: Batch, unwritten: PgItem[]): void {
    this.flying.delete(batch);
    if (unwritten.length === 0) return;
    const again: Batch = { seq: batch.seq, items: unwritten, keys: batch.keys };
    const at = this.retry.findIndex((b) => b.seq > batch.seq);
    this.retry.splice(at < 0 ? this.retry.length : at, 0, again);
  }

  /** Everything not stored, taken out (the recorder is closing without PostgreSQL). */
  abandon(): PgItem[] {
    const rest = [...this.retry.flatMap((b) => b.items), ...[...this.flying].flatMap((b) => b.items.filter((i) => !this.stored.has(i))), ...this.queue];
    this.retry.length = 0;
    this.flying.clear();
    this.queue = [];
    this.unsettled = 0;
    return rest;
  }
}
