// Generates N realistic executions into a history database (for benchmarks and the Traffic UI
// performance test): `node --import tsx scripts/generate-executions.ts --db F --count N`.
// Records are ExecutionRecords written by the store's own inserter in large transactions, so the
// file is exactly what a gateway would have recorded (steps, sink events, search index).
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import type { ExecutionOutcome, ExecutionRecord } from '../src/shared/trace/execution';
import type { TraceStep } from '../src/shared/trace/types';
import { encodeExecution } from '../src/main/history/model/encode/encode';
import { ExecutionInserter } from '../src/main/history/sqlite/sql/inserter';
import { openStore } from '../src/main/history/sqlite/open/open-store';

/** Deterministic PRNG (mulberry32): the same seed gives the same database. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'pe', 'do', 'ga', 'lu', 'ri', 'so', 'te', 'zu', 'bai', 'cor', 'den', 'fal'];
/** A vocabulary of 4,000 made-up words: common ones recur, rare ones appear in few executions. */
export const VOCABULARY: string[] = (() => {
  const r = rng(42);
  const words = new Set<string>();
  while (words.size < 4000) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
})();

export const GATEWAYS = ['prod-gateway', 'staging-gateway', 'dev-gateway'];
export const TOOLS = Array.from({ length: 40 }, (_, i) => `tool_${String(i).padStart(2, '0')}`);
const EVENTS: [string, number][] = [
  ['tools/call', 0.75],
  ['resources/read', 0.15],
  ['prompts/get', 0.07],
  ['tools/list', 0.03],
];
const OUTCOMES: [ExecutionOutcome, number][] = [
  ['allow', 0.8],
  ['mutated', 0.12],
  ['blocked', 0.05],
  ['error', 0.03],
];

function pick<T>(r: () => number, weighted: [T, number][]): T {
  let x = r();
  for (const [v, w] of weighted) {
    if ((x -= w) < 0) return v;
  }
  return weighted[weighted.length - 1]![0];
}

/** Zipf-like word choice: low indexes are common, high ones rare. */
function word(r: () => number): string {
  return VOCABULARY[Math.floor(VOCABULARY.length * r() ** 3)]!;
}

function sentence(r: () => number, n: number): string {
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(word(r));
  return words.join(' ');
}

function step(server: string, name: string, type: TraceStep['type'], extra: Partial<TraceStep>): TraceStep {
  return {
    id: `${server}/${name}`,
    server,
    name,
    type,
    pass: type,
    mode: 'active',
    failOpen: false,
    priority: 0,
    startMs: 0,
    durationMs: 0,
    outcome: 'allowed',
    shadow: false,
    ...extra,
  };
}

/** Execution number i of a synthetic history (3 interceptor steps, realistic payload sizes). */
export function syntheticExecution(i: number, startedMs: number, r: () => number): ExecutionRecord {
  const event = pick(r, EVENTS);
  const outcome = pick(r, OUTCOMES);
  const gateway = GATEWAYS[Math.floor(r() * r() * GATEWAYS.length)]!;
  const tool = TOOLS[Math.floor(r() * r() * TOOLS.length)]!;
  const target = event === 'resources/read' ? `file:///data/${word(r)}/${word(r)}.txt` : event === 'tools/list' ? undefined : tool;
  const received =
    event === 'resources/read'
      ? { uri: target }
      : event === 'tools/list'
        ? {}
        : { name: tool, arguments: { query: sentence(r, 8 + Math.floor(r() * 8)), ref: `order-${i}`, limit: 10 } };
  const forwarded = outcome === 'mutated' ? { ...received, _meta: { redacted: true, by: 'samples/email-redactor' } } : received;
  const blocked = outcome === 'blocked';
  const response = { content: [{ type: 'text', text: sentence(r, 20 + Math.floor(r() * 40)) }], isError: outcome === 'error' };
  const startedAt = new Date(startedMs).toISOString();
  const d = () => Math.round(r() * r() * 5000) / 1000;
  const steps: TraceStep[] = [
    step('samples', 'email-redactor', 'mutation', {
      input: received,
      outcome: outcome === 'mutated' ? 'mutated' : 'unchanged',
      startMs: 0.05,
      durationMs: d(),
      priority: -1000,
      result: { interceptor: 'email-redactor', phase: 'request', type: 'mutation', modified: outcome === 'mutated', payload: forwarded },
    }),
    step('samples', 'pii-validator', 'validation', {
      input: forwarded,
      outcome: blocked ? 'blocked' : 'allowed',
      startMs: 1,
      durationMs: d(),
      result: blocked
        ? {
            interceptor: 'pii-validator',
            phase: 'request',
            type: 'validation',
            valid: false,
            severity: 'error',
            messages: [{ message: 'Payload may contain Social Security Number data', severity: 'error' }],
          }
        : { interceptor: 'pii-validator', phase: 'request', type: 'validation', valid: true },
    }),
    step(
      'samples',
      'request-logger',
      'sink',
      blocked
        ? { outcome: 'skipped', skipped: 'validation-failed', startMs: 2 }
        : {
            input: forwarded,
            outcome: 'recorded',
            startMs: 2,
            durationMs: d(),
            result: { interceptor: 'request-logger', phase: 'request', type: 'sink', recorded: true, metrics: { payloadBytes: 200 } },
          },
    ),
  ];
  const blockInfo = blocked
    ? {
        server: 'samples',
        interceptor: 'pii-validator',
        phase: 'request' as const,
        event,
        reason: 'Payload may contain Social Security Number data',
        messages: ['Payload may contain Social Security Number data'],
      }
    : undefined;
  const rec: ExecutionRecord = {
    id: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    gateway,
    sessionId: `session-${Math.floor(i / 50)}`,
    jsonrpcId: i % 1000,
    event,
    ...(target !== undefined ? { target } : {}),
    startedAt,
    durationMs: Math.round((2 + r() * r() * 40) * 1000) / 1000,
    requestReceived: received,
    outcome,
    requestTrace: {
      event,
      phase: 'request',
      startedAt,
      durationMs: 3,
      decision: blocked ? 'block' : 'allow',
      status: blocked ? 'validation_failed' : 'success',
      ...(blockInfo ? { blockedBy: blockInfo } : {}),
      inputPayload: received,
      finalPayload: forwarded,
      modified: outcome === 'mutated',
      discovery: [],
      steps,
      validationSummary: { errors: blocked ? 1 : 0, warnings: 0, infos: 0 },
    },
  };
  if (blocked) {
    rec.blockedBy = blockInfo;
    rec.errorReturned = { code: -32602, message: 'Blocked by samples/pii-validator (request)' };
  } else {
    rec.requestForwarded = forwarded;
    rec.responseReceived = response;
    rec.responseReturned = response;
    if (outcome === 'error') rec.errorReturned = { code: -32603, message: `backend failed: ${word(r)}` };
  }
  return rec;
}

export interface GenerateOptions {
  count: number;
  seed?: number;
  /** Time of the newest execution (default now); older ones are spread over `spanDays`. */
  endMs?: number;
  spanDays?: number;
  onProgress?: (done: number) => void;
}

/** Writes `count` synthetic executions straight through the store's inserter (no queue). */
export function generateExecutions(dbPath: string, options: GenerateOptions): { count: number; ms: number } {
  const t0 = performance.now();
  const store = openStore(dbPath);
  const db = store.db;
  db.pragma('cache_size = -262144'); // 256 MiB: bulk loading touches many index pages
  const inserter = new ExecutionInserter(db);
  const r = rng(options.seed ?? 1);
  const end = options.endMs ?? Date.now();
  const span = (options.spanDays ?? 30) * 86_400_000;
  const step = span / Math.max(1, options.count);
  const chunk = 20_000;
  try {
    for (let done = 0; done < options.count;) {
      const n = Math.min(chunk, options.count - done);
      db.transaction(() => {
        inserter.beginBatch();
        for (let k = 0; k < n; k++) {
          const i = done + k;
          inserter.write(encodeExecution(syntheticExecution(i, Math.round(end - span + i * step), r)));
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
  return { count: options.count, ms: performance.now() - t0 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { db: { type: 'string' }, count: { type: 'string', default: '100000' }, seed: { type: 'string', default: '1' } } });
  if (!values.db) {
    console.error('usage: node --import tsx scripts/generate-executions.ts --db FILE [--count N] [--seed S]');
    process.exitCode = 2;
    return;
  }
  const count = Number(values.count);
  const result = generateExecutions(values.db, {
    count,
    seed: Number(values.seed),
    onProgress: (done) => process.stderr.write(`\r${done}/${count}`),
  });
  process.stderr.write('\n');
  console.log(`${result.count} executions written to ${values.db} in ${(result.ms / 1000).toFixed(1)} s`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
