// Merged discovery over N interceptor servers (A7, A8): `interceptors/list` on all of them in
// parallel; each listed descriptor becomes the interceptor `server/name`. A failing server blocks
// (fail-closed) unless its handle is failOpen, in which case its interceptors are skipped.
import { InterceptorDescriptorSchema } from '../../../shared/protocol/schemas';
import type { DiscoveryRecord } from '../../../shared/trace/types';
import type { DiscoveryResult, InterceptorServerHandle } from '../server-handle';
import type { DiscoveredInterceptor } from './types';

export interface DiscoveryOutcome {
  /** Interceptors of every server that answered, in configured server order then list order. */
  interceptors: DiscoveredInterceptor[];
  records: DiscoveryRecord[];
  /** Fail-open servers that failed: server → error (their interceptors are skipped as 'discovery-failed'). */
  failedOpen: Map<string, string>;
  /** The first fail-closed server (in configured order) that failed: the request must be blocked. */
  blocking?: { server: string; error: string };
}

export interface DiscoverOptions {
  refresh?: boolean;
  signal?: AbortSignal;
  /** Optional promise rejecting when `signal` aborts (saves a listener per server per run). */
  aborted?: Promise<never>;
}

/** Per-server raw results, kept so a caller can tell whether anything changed since last time. */
export type RawDiscovery = ({ ok: true; result: DiscoveryResult; durationMs: number } | { ok: false; error: string; durationMs: number })[];

export async function listAll(handles: readonly InterceptorServerHandle[], options: DiscoverOptions = {}): Promise<RawDiscovery> {
  return Promise.all(
    handles.map(async (h) => {
      const t0 = performance.now();
      try {
        const result = await withAbort(h.discover({ refresh: options.refresh, signal: options.signal }), options.signal, options.aborted);
        return { ok: true as const, result, durationMs: performance.now() - t0 };
      } catch (err) {
        return { ok: false as const, error: errorText(err), durationMs: performance.now() - t0 };
      }
    }),
  );
}

/** Turns the raw per-server results into the merged interceptor list and discovery records. */
export function mergeDiscovery(
  handles: readonly InterceptorServerHandle[],
  raw: RawDiscovery,
  lastKnown?: ReadonlyMap<string, DiscoveredInterceptor[]>,
): DiscoveryOutcome {
  const out: DiscoveryOutcome = { interceptors: [], records: [], failedOpen: new Map() };
  handles.forEach((h, serverIndex) => {
    const r = raw[serverIndex];
    if (!r) return;
    if (!r.ok) {
      out.records.push({
        server: h.name,
        ok: false,
        failOpen: h.failOpen,
        error: r.error,
        durationMs: r.durationMs,
        interceptorCount: 0,
        skippedDescriptors: [],
      });
      if (h.failOpen) {
        out.failedOpen.set(h.name, r.error);
        // Interceptors known from an earlier discovery stay visible in the trace, skipped.
        out.interceptors.push(...(lastKnown?.get(h.name) ?? []));
      } else if (!out.blocking) {
        out.blocking = { server: h.name, error: r.error };
      }
      return;
    }
    const skipped = [...r.result.skipped];
    const seen = new Set<string>();
    let listIndex = 0;
    for (const candidate of r.result.interceptors) {
      // Defensive: handles validate, but an in-memory or foreign handle might not.
      const parsed = InterceptorDescriptorSchema.safeParse(candidate);
      const name = (candidate as { name?: unknown } | null)?.name;
      if (!parsed.success) {
        skipped.push({ ...(typeof name === 'string' ? { name } : {}), reason: `malformed descriptor: ${parsed.error.issues[0]?.message ?? 'invalid'}` });
        continue;
      }
      if (seen.has(parsed.data.name)) {
        skipped.push({ name: parsed.data.name, reason: 'duplicate name on this server (names must be unique per host)' });
        continue;
      }
      seen.add(parsed.data.name);
      out.interceptors.push({ server: h.name, serverIndex, listIndex: listIndex++, descriptor: parsed.data });
    }
    out.records.push({
      server: h.name,
      ok: true,
      failOpen: h.failOpen,
      durationMs: r.durationMs,
      interceptorCount: seen.size,
      skippedDescriptors: skipped,
    });
  });
  return out;
}

export async function discoverAll(handles: readonly InterceptorServerHandle[], options: DiscoverOptions = {}): Promise<DiscoveryOutcome> {
  assertUniqueServerNames(handles);
  return mergeDiscovery(handles, await listAll(handles, options));
}

/** Server names are half of every identity; two servers with one name would make ids ambiguous. */
export function assertUniqueServerNames(handles: readonly InterceptorServerHandle[]): void {
  const seen = new Set<string>();
  for (const h of handles) {
    if (seen.has(h.name)) throw new Error(`Two interceptor servers are both named "${h.name}"; give each server a unique name.`);
    if (h.name.includes('/')) throw new Error(`Interceptor server name "${h.name}" contains "/"; identities are "<server>/<interceptor>", so rename it.`);
    seen.add(h.name);
  }
}

function withAbort<T>(promise: Promise<T>, signal?: AbortSignal, aborted?: Promise<never>): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new Error('discovery aborted'));
  // A shared rejection promise (ChainClock.aborted) costs far less than a listener per server per run.
  if (aborted) return Promise.race([promise, aborted.catch(() => Promise.reject(new Error('discovery aborted before the server answered')))]);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('discovery aborted before the server answered'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
