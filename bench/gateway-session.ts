// A headless gateway kept running for a whole bench (bench/otel.ts; bench/path.ts keeps its variants, relays
// included, in these and times blocks of calls itself), measured in short rounds: wall time and
// latency of the round's calls, and the CPU the gateway process spent on them, read from Linux /proc in
// nanoseconds (schedstat: time on a CPU, user + system). After each round the session waits until the process
// has been idle for a while, so work a round deferred (the export thread's batches, the store writer's last
// transaction) is done before another gateway's round starts, and is counted in this round's CPU.
import { readdirSync, readFileSync } from 'node:fs';
import { connect, timeEchoCalls, type BenchConnection, type ClientKind } from './bench-client';

export interface RoundResult {
  calls: number;
  wallMs: number;
  /** Per-call latencies, ms. */
  samples: number[];
  /** CPU of the gateway process (all its threads) from the round's first call until it was idle again, ms. */
  cpuMs: number;
  /** The part of cpuMs on the main thread (the event loop that serves traffic), ms. */
  mainCpuMs: number;
}

/** Time on a CPU of one thread so far, ns (first field of /proc/PID/task/TID/schedstat). */
function threadNs(pid: number, tid: string): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0; // the thread ended between the listing and the read
  }
}

/** Time on a CPU of every live thread of a process, ns, and of its main thread (zero for a process that has ended). */
export function processNs(pid: number): { all: number; main: number } {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return { all: 0, main: 0 };
  }
  let all = 0;
  for (const tid of tids) all += threadNs(pid, tid);
  return { all, main: threadNs(pid, String(pid)) };
}

export class GatewaySession {
  private constructor(
    readonly name: string,
    private readonly connection: BenchConnection,
  ) {
    // A process that ends before stop() would leave a call waiting forever: end the bench saying which one.
    connection.onUnexpectedEnd((how) => {
      console.error(`bench: "${name}" ended during the run (${how}); no figures`);
      process.exit(1);
    });
  }

  /**
   * Starts `node <args>` (a gateway on stdio), connects a client of `client`'s kind (bench-client.ts; the line
   * client unless said) and makes `warmup` calls.
   */
  static async start(name: string, args: string[], warmup: number, client: ClientKind = 'line'): Promise<GatewaySession> {
    const session = new GatewaySession(name, await connect(client, args));
    for (let i = 0; i < warmup; i++) await session.call();
    await session.settle();
    return session;
  }

  get pid(): number {
    return this.connection.pid;
  }

  /** One tools/call, resolved with its latency in ms. */
  async call(): Promise<number> {
    const t0 = performance.now();
    await this.connection.callEcho();
    return performance.now() - t0;
  }

  /** `calls` sequential tools/call: each one's latency and the block's wall time, ms. */
  calls(calls: number): Promise<{ samples: number[]; totalMs: number }> {
    return timeEchoCalls(this.connection, calls);
  }

  /** CPU of the process so far (every live thread, and the main thread), ns. */
  cpuNs(): { all: number; main: number } {
    return processNs(this.pid);
  }

  async round(calls: number, quietMs: number): Promise<RoundResult> {
    const pid = this.pid;
    const cpu0 = processNs(pid);
    const { samples, totalMs: wallMs } = await this.calls(calls);
    await this.settle(quietMs);
    const cpu1 = processNs(pid);
    return { calls, wallMs, samples, cpuMs: (cpu1.all - cpu0.all) / 1e6, mainCpuMs: (cpu1.main - cpu0.main) / 1e6 };
  }

  /**
   * Waits until the process has spent under 1 ms of CPU in each poll for `quietMs` (longer than any timer that
   * defers work: the export's 100 ms drain and 1 s span batch delay), or 15 s at most.
   */
  async settle(quietMs = 1500): Promise<void> {
    const pid = this.pid;
    const deadline = performance.now() + 15_000;
    let last = processNs(pid).all;
    let quietSince = performance.now();
    while (performance.now() < deadline && performance.now() - quietSince < quietMs) {
      await new Promise((r) => setTimeout(r, 100));
      const now = processNs(pid).all;
      if (now - last > 1e6) quietSince = performance.now();
      last = now;
    }
  }

  stop(): Promise<void> {
    return this.connection.stop();
  }
}
