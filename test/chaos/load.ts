// The chaos load: N tools/call through a real gateway process, `inFlight` at once over several HTTP
// sessions, most of them ordinary work and a few that make the backend hang, answer garbage, flood
// notifications or crash, or make an interceptor slow or crash. Optionally the gateway is sent a signal
// once half the calls are answered. Shared by test/chaos/load.test.ts and bench/chaos.ts.
import { chaosBackend, type ChaosDir, GatewayProcess, HttpSession, ranKeys, recordedCalls } from './harness';
import { join } from 'node:path';
import { root } from './harness';

export interface LoadOptions {
  total: number;
  inFlight: number;
  sessions: number;
  /** Sent to the gateway once `killAfter` calls are answered. */
  signal?: 'SIGTERM' | 'SIGKILL';
  killAfter?: number;
  /** Add misbehaving calls (hang, garbage, flood, crash, slow and crashing interceptor). */
  faults: boolean;
  /** Record executions (off: the bench's baseline). */
  record?: boolean;
  interceptors?: boolean;
}

export interface LoadResult {
  /** Calls whose POST the gateway took (a response status came back). */
  sent: number;
  /** Calls that got their JSON-RPC answer (result or error). */
  answered: number;
  /** Calls the client saw cut off without an answer (their stream broke). */
  cutOff: string[];
  /** Calls refused at the HTTP level (503: the gateway is stopping) with a clear error: never executed, not recorded. */
  refused: string[];
  /** key → performance.now() when its answer arrived. */
  confirmedAt: Map<string, number>;
  killedAt?: number;
  ms: number;
  gateway: GatewayProcess;
}

/** Which call `i` is: mostly work, every so often a fault. */
export function callFor(i: number, faults: boolean): { tool: string; args: Record<string, unknown> } {
  const key = `k${i}`;
  if (faults) {
    if (i % 211 === 105) return { tool: 'crash', args: { key } };
    if (i % 97 === 50) return { tool: 'hang', args: { key } };
    if (i % 89 === 44) return { tool: 'garbage', args: { key } };
    if (i % 83 === 41) return { tool: 'flood', args: { key, n: 200 } };
    if (i % 101 === 7) return { tool: 'work', args: { key, slowMs: 400 } };
    if (i % 500 === 150) return { tool: 'work', args: { key, crashInterceptor: true } };
  }
  return { tool: 'work', args: { key, ms: i % 5 } };
}

export function chaosGatewayConfig(d: ChaosDir, options: { interceptors?: boolean; record?: boolean }): Record<string, unknown> {
  return {
    backend: { ...chaosBackend(d, ['--tag', d.dir]) },
    backendTimeoutMs: 1000,
    drainTimeoutMs: 5000,
    recording: options.record !== false,
    ...(options.interceptors
      ? {
          staticInterceptors: [
            {
              transport: 'stdio',
              name: 'chaos',
              command: process.execPath,
              arguments: ['--import', 'tsx', join(root, 'test/chaos/fixtures/chaos-interceptors.ts'), '--tag', d.dir],
              cwd: root,
              failOpen: true,
            },
          ],
          overrides: { 'chaos/slow': { timeoutMs: 150, failOpen: true }, 'chaos/crashy': { failOpen: true } },
        }
      : {}),
  };
}

export async function runLoad(d: ChaosDir, gateway: GatewayProcess, o: LoadOptions): Promise<LoadResult> {
  const url = gateway.url || (await gateway.ready());
  const sessions: HttpSession[] = [];
  for (let i = 0; i < o.sessions; i++) {
    const s = new HttpSession(url);
    await s.initialize();
    sessions.push(s);
  }
  const result: LoadResult = { sent: 0, answered: 0, cutOff: [], refused: [], confirmedAt: new Map(), ms: 0, gateway };
  let next = 0;
  let stopped = false;
  const started = performance.now();
  const perSession = Math.ceil(o.inFlight / o.sessions);
  const worker = async (s: HttpSession): Promise<void> => {
    while (!stopped && next < o.total) {
      const i = next++;
      const { tool, args } = callFor(i, o.faults);
      const key = args.key as string;
      let res: Response;
      try {
        res = await s.post({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: tool, arguments: args } });
      } catch {
        stopped = true; // the gateway is gone: nothing more can be sent
        return;
      }
      result.sent++;
      try {
        const text = await res.text();
        if (res.status === 503 && text.includes('The gateway is stopping')) {
          result.refused.push(key);
          continue;
        }
        if (res.status !== 200 || !text.includes(`"id":${i}`)) throw new Error(`HTTP ${res.status} ${text.slice(0, 160)}`);
        result.answered++;
        result.confirmedAt.set(key, performance.now());
      } catch (err) {
        result.cutOff.push(`${key}: ${(err as Error).message}`);
      }
      if (o.signal && result.killedAt === undefined && result.answered >= (o.killAfter ?? o.total / 2)) {
        result.killedAt = performance.now();
        gateway.child.kill(o.signal);
      }
    }
  };
  await Promise.all(sessions.flatMap((s) => Array.from({ length: perSession }, () => worker(s))));
  result.ms = performance.now() - started;
  return result;
}

/** What the backend ran and what history holds, by key. */
export function tally(d: ChaosDir): { ran: string[]; recorded: string[]; integrity: string } {
  const { calls, integrity } = recordedCalls(d.db);
  return { ran: ranKeys(d), recorded: calls.map((c) => c.key).filter((k): k is string => k !== undefined), integrity };
}

export function startChaosGateway(d: ChaosDir, options: { interceptors?: boolean; record?: boolean } = {}): GatewayProcess {
  return new GatewayProcess(d, chaosGatewayConfig(d, options), ['--quiet']);
}
