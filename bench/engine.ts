// Chain engine bench, ratios measured side by side in one run:
//  (a) engine overhead: an in-memory chain of 5 mutations + 5 validations through ChainRuntime vs
//      calling the same 10 handlers directly (same pass order, same parallelism);
//  (b) N validators cost about one: 8 validators on 8 separate stdio servers vs 1 on 1 (target ≤ 1.5×).
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Phase } from '../src/shared/protocol/constants';
import type { InterceptorDescriptor, InterceptorResult, InvokeParams } from '../src/shared/protocol/schemas';
import { ChainRuntime, MemoryServerHandle } from '../src/main/interceptors/chain/index';
import type { DiscoveryResult, InterceptorServerHandle } from '../src/main/interceptors/server-handle';
import { InterceptorServerClient } from '../src/main/interceptors/client/index';
import { fmtMs, mean, percentile, printTable } from './stats';

type Payload = { name: string; arguments: { note: string; text: string; items: { id: number; tag: string }[] } };
type Handler = (p: Payload) => Promise<{ modified?: boolean; payload?: unknown; valid?: boolean }>;

const payload: Payload = {
  name: 'echo',
  arguments: { note: 'hello', text: 'lorem ipsum '.repeat(40), items: Array.from({ length: 20 }, (_, id) => ({ id, tag: `t${id}` })) },
};

const mutations: Handler[] = Array.from({ length: 5 }, (_, i) => async (p: Payload) => ({
  modified: true,
  payload: { ...p, arguments: { ...p.arguments, note: `${p.arguments.note}${i}` } },
}));
const validations: Handler[] = Array.from({ length: 5 }, (_, i) => async (p: Payload) => ({
  valid: typeof p.arguments.note === 'string' && !p.arguments.note.includes(`forbidden${i}`),
}));

/** The baseline: the same handlers called directly in the engine's request-phase order. */
async function direct(p: Payload): Promise<unknown> {
  let current = p;
  for (const m of mutations) {
    const r = await m(current);
    if (r.modified) current = r.payload as Payload;
  }
  const results = await Promise.all(validations.map((v) => v(current)));
  if (results.some((r) => !r.valid)) throw new Error('blocked');
  return current;
}

/** A handle with no wire emulation at all, so (a) measures the engine and nothing else. */
class BareHandle implements InterceptorServerHandle {
  readonly name = 'bench';
  readonly failOpen = false;
  private readonly discovery: DiscoveryResult;
  constructor(private readonly handlers: Map<string, { type: 'mutation' | 'validation'; fn: Handler }>) {
    this.discovery = {
      interceptors: [...handlers].map(([name, h]): InterceptorDescriptor => ({ name, type: h.type, hooks: [{ events: ['tools/call'], phase: 'request' }] })),
      skipped: [],
    };
  }
  async discover(): Promise<DiscoveryResult> {
    return this.discovery;
  }
  async invoke(params: InvokeParams): Promise<InterceptorResult> {
    const h = this.handlers.get(params.name)!;
    const r = await h.fn(params.payload as Payload);
    return { interceptor: params.name, type: h.type, phase: params.phase as Phase, ...r } as InterceptorResult;
  }
}

function handlerMap() {
  const map = new Map<string, { type: 'mutation' | 'validation'; fn: Handler }>();
  mutations.forEach((fn, i) => map.set(`m${i}`, { type: 'mutation', fn }));
  validations.forEach((fn, i) => map.set(`v${i}`, { type: 'validation', fn }));
  return map;
}

async function timeBatch(fn: () => Promise<unknown>, n: number): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t0) / n;
}

async function benchOverhead(): Promise<string[][]> {
  const bare = new ChainRuntime([new BareHandle(handlerMap())]);
  const memory = new ChainRuntime([
    new MemoryServerHandle(
      'bench',
      [...handlerMap()].map(([name, h]) => ({
        descriptor: { name, type: h.type, hooks: [{ events: ['tools/call'], phase: 'request' as const }] },
        handler: (c: { payload: unknown }) => h.fn(c.payload as Payload),
      })),
    ),
  ]);
  const check = await bare.run('tools/call', 'request', payload);
  if (check.decision !== 'allow' || (check.finalPayload as Payload).arguments.note !== 'hello01234') throw new Error('bench chain misconfigured');
  const variants: [string, () => Promise<unknown>][] = [
    ['direct: 10 handlers called in chain order', () => direct(payload)],
    ['engine: ChainRuntime.run, bare in-process handle', () => bare.run('tools/call', 'request', payload)],
    ['engine: ChainRuntime.run, MemoryServerHandle (clones like a wire)', () => memory.run('tools/call', 'request', payload)],
  ];
  for (const [, fn] of variants) await timeBatch(fn, 1000); // warm-up
  const samples: number[][] = variants.map(() => []);
  for (let round = 0; round < 30; round++) {
    // Alternate the order each round so drift and GC hit every variant alike.
    const order = round % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
    for (const i of order) samples[i]!.push(await timeBatch(variants[i]![1], 300));
  }
  const base = percentile(samples[0]!, 50);
  return variants.map(([label], i) => {
    const p50 = percentile(samples[i]!, 50);
    return [label, fmtMs(p50), fmtMs(mean(samples[i]!)), i === 0 ? '1.00×' : `${(p50 / base).toFixed(2)}×`];
  });
}

async function benchFanOut(): Promise<string[][]> {
  const script = fileURLToPath(new URL('./fixtures/validator-server.ts', import.meta.url));
  const spawn = (name: string, validators = 1) =>
    new InterceptorServerClient({
      name,
      initializeTimeoutMs: 60_000,
      connection: { transport: 'stdio', command: process.execPath, args: ['--import', 'tsx', script, name, String(validators)] },
    });
  const solo = spawn('solo');
  const eight = Array.from({ length: 8 }, (_, i) => spawn(`v${i + 1}`));
  const crowded = spawn('crowded', 8);
  const all = [solo, ...eight, crowded];
  try {
    // Sequentially: nine tsx start-ups at once on a small machine can exceed any initialize deadline.
    for (const c of all) await c.connect();
    const one = new ChainRuntime([solo]);
    const many = new ChainRuntime(eight);
    const oneServerMany = new ChainRuntime([crowded]);
    const p = { name: 'echo', arguments: { note: 'hello' } };
    const invokeParams = { name: 'check', event: 'tools/call', phase: 'request' as const, payload: p };
    const r8 = await many.run('tools/call', 'request', p);
    if (r8.decision !== 'allow' || r8.trace.steps.length !== 8) throw new Error('8-validator chain misconfigured');
    const variants: [string, () => Promise<unknown>][] = [
      ['client.invoke on 1 stdio server (no engine)', () => solo.invoke(invokeParams)],
      ['chain: 1 validator on 1 stdio server', () => one.run('tools/call', 'request', p)],
      ['chain: 8 validators on 8 stdio servers', () => many.run('tools/call', 'request', p)],
      ['reference: chain of 8 validators on 1 stdio server', () => oneServerMany.run('tools/call', 'request', p)],
    ];
    for (let i = 0; i < 300; i++) for (const [, fn] of variants) await fn(); // warm-up (JIT on both sides)
    const samples: number[][] = variants.map(() => []);
    for (let i = 0; i < 1000; i++) {
      for (let k = 0; k < variants.length; k++) {
        const idx = (k + i) % variants.length; // rotate the order
        const t0 = performance.now();
        await variants[idx]![1]();
        samples[idx]!.push(performance.now() - t0);
      }
    }
    // Evidence that the engine dispatches the 8 invokes at once: spread of their start offsets.
    const spreads: number[] = [];
    for (let i = 0; i < 50; i++) {
      const starts = (await many.run('tools/call', 'request', p)).trace.steps.map((s) => s.startMs);
      spreads.push(Math.max(...starts) - Math.min(...starts));
    }
    const base = percentile(samples[1]!, 50);
    const rows = variants.map(([label], i) => {
      const p50 = percentile(samples[i]!, 50);
      return [label, fmtMs(p50), fmtMs(percentile(samples[i]!, 95)), i === 1 ? '1.00×' : `${(p50 / base).toFixed(2)}×`];
    });
    rows.push(['8-on-8: spread of the 8 invoke start offsets (p50)', fmtMs(percentile(spreads, 50)), '', '']);
    return rows;
  } finally {
    await Promise.all(all.map((c) => c.close()));
  }
}

export async function runEngineBench(): Promise<void> {
  const overhead = await benchOverhead();
  printTable('(a) chain engine overhead: 5 mutations + 5 validations, in memory (per run)', ['variant', 'p50', 'mean', 'vs direct'], overhead);
  const fanOut = await benchFanOut();
  printTable(
    '(b) parallel validators over stdio (per request, 1000 sequential requests each, interleaved)',
    ['variant', 'p50', 'p95', 'vs 1-on-1 chain (target 8-on-8 ≤ 1.50×)'],
    fanOut,
  );
  const load = loadavg()[0]!;
  const cores = availableParallelism();
  console.log(`machine: ${cores} cores, 1-min load average ${load.toFixed(1)} (8 server processes compete for these cores)`);
}
