// `serve-samples` runs the stateless samples' work on worker threads (samples/worker.ts): a call with
// a large payload then neither delays other clients' calls nor outlives its cancellation. The
// stateful cross-boundary-guard (per-session taint) and request-logger (its log function) stay on the
// host's thread; their work is linear and bounded by the payload limit.
import { resolveWorkerEntry } from '../host/worker-entry';
import { WorkerHandlerPool } from '../host/worker-pool';

export const OFFLOADED_SAMPLES = ['pii-validator', 'email-redactor', 'secretless-redactor', 'tool-allowlist', 'prompt-injection-heuristic'] as const;

/** The pool, or undefined (with the reason) when no worker entry is found beside this code. */
export function sampleWorkerPool(options: { size?: number; minPayloadBytes?: number } = {}): { pool?: WorkerHandlerPool; problem?: string } {
  const entry = resolveWorkerEntry(import.meta.url, './worker.ts', 'sample-worker.js');
  if (!entry) return { problem: 'no sample-worker.js beside the bundle; samples run on the main thread' };
  return { pool: new WorkerHandlerPool({ entry, names: OFFLOADED_SAMPLES, ...options }) };
}
