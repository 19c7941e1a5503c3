// Generates N realistic captured messages into a history database (for the Messages benchmark):
// `node --import tsx scripts/generate-messages.ts --db F --count N`. Each simulated call is what a gateway
// with two interceptors captures: the client's request and its answer, the forwarded request and the
// backend's answer, two interceptor/invoke exchanges, and now and then a progress notification; sessions
// open with initialize and initialized. Written by the store's own inserter (encodeMessage, the message
// inserter) in large transactions, so the file is what a gateway would have recorded.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { MessageRecord } from '../src/shared/trace/messages';
import { encodeMessage } from '../src/main/history/model/encode/encode-message';
import { ExecutionInserter } from '../src/main/history/sqlite/sql/inserter';
import { openStore } from '../src/main/history/sqlite/open/open-store';
import { rng, TOOLS, VOCABULARY } from './generate-executions';

export const MESSAGE_GATEWAY = 'prod-gateway';

export interface GenerateMessagesOptions {
  count: number;
  /** Messages per client session (default 500: 2,000 sessions in a million). */
  perSession?: number;
  seed?: number;
  endMs?: number;
  spanDays?: number;
  onProgress?: (done: number) => void;
}

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(VOCABULARY[Math.floor(VOCABULARY.length * r() ** 3)]!);
  return out.join(' ');
}

/** The messages of one session, in capture order, until `limit` of them. */
function* sessionMessages(r: () => number, sessionId: string, limit: number): Generator<Omit<MessageRecord, 'id' | 'gateway' | 'at'>> {
  const base = { sessionId };
  yield {
    ...base,
    side: 'client',
    direction: 'in',
    kind: 'request',
    method: 'initialize',
    jsonrpcId: 0,
    message: {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-client', version: '1.0.0' } },
    },
  };
  yield {
    ...base,
    side: 'client',
    direction: 'in',
    kind: 'notification',
    method: 'notifications/initialized',
    message: { jsonrpc: '2.0', method: 'notifications/initialized' },
  };
  let produced = 2;
  for (let id = 1; produced < limit; id++) {
    const executionId = randomUUID();
    const tool = TOOLS[Math.floor(r() * TOOLS.length)]!;
    const params = { name: tool, arguments: { text: words(r, 12 + Math.floor(r() * 20)) } };
    const request = { jsonrpc: '2.0', id, method: 'tools/call', params };
    const result = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: words(r, 20 + Math.floor(r() * 40)) }] } };
    const call = { ...base, method: 'tools/call', jsonrpcId: id, executionId };
    const invoke = (n: number, name: string, phase: string, payload: unknown) => ({
      ...base,
      side: 'interceptor' as const,
      peer: 'samples',
      method: 'interceptor/invoke',
      jsonrpcId: n,
      executionId,
      message: {
        jsonrpc: '2.0',
        id: n,
        method: 'interceptor/invoke',
        params: { name, event: 'tools/call', phase, payload, context: { sessionId, traceId: executionId } },
      },
    });
    const batch: Omit<MessageRecord, 'id' | 'gateway' | 'at'>[] = [
      { ...call, side: 'client', direction: 'in', kind: 'request', message: request },
      { ...invoke(id * 2, 'pii-validator', 'request', params), direction: 'out', kind: 'request' },
      {
        ...invoke(id * 2, 'pii-validator', 'request', params),
        direction: 'in',
        kind: 'response',
        message: { jsonrpc: '2.0', id: id * 2, result: { interceptor: 'pii-validator', type: 'validation', phase: 'request', valid: true } },
      },
      { ...call, side: 'backend', direction: 'out', kind: 'request', message: request },
    ];
    if (r() < 0.1)
      batch.push({
        ...call,
        side: 'backend',
        direction: 'in',
        kind: 'notification',
        method: 'notifications/progress',
        jsonrpcId: undefined,
        message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1, total: 2 } },
      });
    const failed = r() < 0.03;
    const answer = failed ? { jsonrpc: '2.0', id, error: { code: -32603, message: `tool ${tool} failed: ${words(r, 4)}` } } : result;
    const kind = failed ? 'error' : 'response';
    batch.push(
      { ...call, side: 'backend', direction: 'in', kind, message: answer },
      { ...invoke(id * 2 + 1, 'email-redactor', 'response', failed ? {} : result.result), direction: 'out', kind: 'request' },
      {
        ...invoke(id * 2 + 1, 'email-redactor', 'response', {}),
        direction: 'in',
        kind: 'response',
        message: { jsonrpc: '2.0', id: id * 2 + 1, result: { interceptor: 'email-redactor', type: 'mutation', phase: 'response', modified: false } },
      },
      { ...call, side: 'client', direction: 'out', kind, message: answer },
    );
    for (const m of batch) {
      if (produced++ >= limit) return;
      yield m as Omit<MessageRecord, 'id' | 'gateway' | 'at'>;
    }
  }
}

/** Writes `count` synthetic messages for one gateway straight through the store's inserter (no queue). */
export function generateMessages(dbPath: string, options: GenerateMessagesOptions): { count: number; ms: number; sessions: string[] } {
  const t0 = performance.now();
  const store = openStore(dbPath);
  const db = store.db;
  db.pragma('cache_size = -262144');
  const inserter = new ExecutionInserter(db);
  const r = rng(options.seed ?? 7);
  const end = options.endMs ?? Date.now();
  const span = (options.spanDays ?? 7) * 86_400_000;
  const step = span / Math.max(1, options.count);
  const perSession = options.perSession ?? 500;
  const sessions: string[] = [];
  const chunk = 20_000;
  let done = 0;
  let current: Generator<Omit<MessageRecord, 'id' | 'gateway' | 'at'>> | undefined;
  const next = (): Omit<MessageRecord, 'id' | 'gateway' | 'at'> => {
    for (;;) {
      const item = current?.next();
      if (item && !item.done) return item.value;
      const id = randomUUID();
      sessions.push(id);
      current = sessionMessages(r, id, perSession);
    }
  };
  try {
    while (done < options.count) {
      const n = Math.min(chunk, options.count - done);
      db.transaction(() => {
        inserter.beginBatch();
        for (let k = 0; k < n; k++) {
          const i = done + k;
          inserter.write(encodeMessage({ id: randomUUID(), gateway: MESSAGE_GATEWAY, at: Math.round(end - span + i * step), ...next() } as MessageRecord));
        }
        inserter.endBatch();
      }).immediate();
      done += n;
      options.onProgress?.(done);
    }
    db.pragma('optimize');
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    store.close();
  }
  return { count: options.count, ms: performance.now() - t0, sessions };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' }, count: { type: 'string', default: '100000' }, seed: { type: 'string', default: '7' } } });
  if (!values.db) {
    console.error('usage: node --import tsx scripts/generate-messages.ts --db FILE [--count N] [--seed S]');
    process.exitCode = 2;
    return;
  }
  const count = Number(values.count);
  const result = generateMessages(values.db, { count, seed: Number(values.seed), onProgress: (done) => process.stderr.write(`\r${done}/${count}`) });
  process.stderr.write('\n');
  console.log(`${result.count} messages (${result.sessions.length} sessions) written to ${values.db} in ${(result.ms / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
