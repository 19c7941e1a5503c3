// A gateway's chain tests as a suite: its cases run one after another through an interception built
// from the gateway's config (the current chain, or an edited one), with no backend: every case carries
// the backend's recorded answer. Used by `interceptor-console test` and by the console's Tests screen.
import type { GatewayConfig } from '../../shared/config/schema';
import { Backend } from '../gateway/backend/backend';
import { Interception } from '../gateway/intercept';
import { ReplayClient, type ReplayHost } from '../gateway/replay/replay';
import { caseNameOf, type LoadedCase } from './case-file';
import { runCase, type CaseRun } from './run-case';

export interface SuiteRun {
  gateway: string;
  cases: CaseRun[];
  passed: number;
  failed: number;
  errors: number;
  durationMs: number;
}

export interface SuiteOptions {
  /** Shown in records and reports; defaults to serverInfo.name, then the backend's name (as the gateway does). */
  gatewayName?: string;
  log?: (line: string) => void;
  /** Called as each case ends (progress for the CLI and the Tests screen). */
  onCase?: (run: CaseRun, index: number, total: number) => void;
  /** Send each request through the chain to the gateway's real backend instead of mocking it. */
  live?: boolean;
}

export async function runSuite(config: GatewayConfig, loaded: readonly LoadedCase[], options: SuiteOptions = {}): Promise<SuiteRun> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const gatewayName = options.gatewayName ?? config.serverInfo?.name ?? config.backend.name;
  const interception = new Interception(config, { log });
  const host: ReplayHost = {
    config,
    gatewayName,
    interception,
    createBackend() {
      if (!options.live) throw new Error('chain tests run with the backend mocked by the recorded answer');
      return new Backend(config.backend, { maxMessageBytes: config.maxMessageBytes, log });
    },
    log,
  };
  const cases: CaseRun[] = [];
  // Live: one replay session per principal on the real backend (a case's principal picks its dynamic interceptors).
  const sessions = new Map<string, Promise<ReplayClient>>();
  const liveFor = (principal: string | undefined): Promise<ReplayClient> => {
    let session = sessions.get(principal ?? '');
    if (!session) {
      session = ReplayClient.open(host, null, principal ? { principal } : {});
      sessions.set(principal ?? '', session);
    }
    return session;
  };
  try {
    const chains = new Map<string, Set<string>>();
    for (const [index, item] of loaded.entries()) {
      let run: CaseRun;
      if (!item.case) {
        run = {
          name: caseNameOf(item.file),
          file: item.file,
          status: 'error',
          error: item.error ?? 'not a chain test case',
          failures: [],
          steps: [],
          durationMs: 0,
        };
      } else {
        const principal = item.case.principal ?? '';
        let chain = chains.get(principal);
        if (!chain) {
          chain = await interceptorsOf(interception, item.case.principal);
          chains.set(principal, chain);
        }
        let live: ReplayClient | undefined;
        try {
          live = options.live ? await liveFor(item.case.principal) : undefined;
        } catch (err) {
          run = {
            name: item.case.name,
            file: item.file,
            status: 'error',
            error: `the backend could not be started: ${(err as Error).message}`,
            failures: [],
            steps: [],
            durationMs: 0,
          };
          cases.push(run);
          options.onCase?.(run, index, loaded.length);
          continue;
        }
        run = await runCase(host, item.case, item.file, chain, live);
      }
      cases.push(run);
      options.onCase?.(run, index, loaded.length);
    }
  } finally {
    for (const session of sessions.values()) await session.then((c) => c.close()).catch(() => undefined);
    await interception.close();
  }
  return {
    gateway: gatewayName,
    cases,
    passed: cases.filter((c) => c.status === 'passed').length,
    failed: cases.filter((c) => c.status === 'failed').length,
    errors: cases.filter((c) => c.status === 'error').length,
    durationMs: Math.round(performance.now() - started),
  };
}

/** `server/name` of every interceptor the chain lists for a principal (servers that fail discovery list none). */
async function interceptorsOf(interception: Interception, principal: string | undefined): Promise<Set<string>> {
  const runtime = interception.runtimeFor(principal);
  if (!runtime) return new Set();
  const outcome = await runtime.discover().catch(() => undefined);
  return new Set((outcome?.interceptors ?? []).map((d) => `${d.server}/${d.descriptor.name}`));
}
