// `serve-samples` runs the stateless samples' work on worker threads (samples/worker.ts): a call with
// a large payload then neither delays other clients' calls nor outlives its cancellation. The
// stateful cross-boundary-guard keeps its per-session taint on the host's thread and sends only its
// text scans (SECRET_SCAN) to the workers; request-logger (its log function) stays, its work is one
// stringify, bounded by the payload limit.
import { resolveWorkerEntry } from '../../processes/worker-entry';
import { WorkerHandlerPool } from '../host/worker-pool';
import { inlineSecretScanner, type SecretScanner } from './cross-boundary-guard';
import type { SecretMatch } from './secrets';

export const OFFLOADED_SAMPLES = ['pii-validator', 'email-redactor', 'secretless-redactor', 'tool-allowlist', 'prompt-injection-heuristic'] as const;

/** The worker-side name of cross-boundary-guard's scans (never listed by the host). */
export const SECRET_SCAN = 'cross-boundary-guard/scan';
const DEFAULT_MIN_BYTES = 32 * 1024;

/** cross-boundary-guard's scans on the pool for texts of `minBytes` and more, inline below. */
export function pooledSecretScanner(pool: WorkerHandlerPool, minBytes = DEFAULT_MIN_BYTES): SecretScanner {
  const scan = (text: string, phase: 'request' | 'response', secrets: string[], signal: () => AbortSignal) =>
    pool.run({ name: SECRET_SCAN, payload: text, config: { secrets }, context: undefined, event: SECRET_SCAN, phase }, signal()) as Promise<{
      matches?: SecretMatch[];
      contained?: string[];
    }>;
  // Small texts are scanned inline and answered synchronously (the guard then answers at once).
  return {
    find: (text, signal) => (text.length < minBytes ? inlineSecretScanner.find(text, signal) : scan(text, 'response', [], signal).then((r) => r.matches ?? [])),
    contained: (text, secrets, signal) =>
      text.length < minBytes ? inlineSecretScanner.contained(text, secrets, signal) : scan(text, 'request', secrets, signal).then((r) => r.contained ?? []),
  };
}

/** The pool, or undefined (with the reason) when no worker entry is found beside this code. */
export function sampleWorkerPool(options: { size?: number; minPayloadBytes?: number } = {}): { pool?: WorkerHandlerPool; problem?: string } {
  const entry = resolveWorkerEntry(import.meta.url, './worker.ts', 'sample-worker.js');
  if (!entry) return { problem: 'no sample-worker.js beside the bundle; samples run on the main thread' };
  return { pool: new WorkerHandlerPool({ entry, names: OFFLOADED_SAMPLES, minPayloadBytes: DEFAULT_MIN_BYTES, ...options }) };
}
