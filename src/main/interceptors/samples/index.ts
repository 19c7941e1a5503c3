// The sample interceptor server: the C#/TS SDK samples, the security samples of the conformance
// suite, and two policies of our own. `createSampleHost()` is what `serve-samples` serves.
import { InterceptorHost, type InterceptorHostOptions } from '../host/host';
import type { InterceptorRegistration } from '../host/types';
import { crossBoundaryGuard } from './cross-boundary-guard';
import { emailRedactor } from './email-redactor';
import { pooledSecretScanner, sampleWorkerPool } from './offload';
import type { SecretScanner } from './cross-boundary-guard';
import { piiValidator } from './pii-validator';
import { promptInjectionHeuristic } from './prompt-injection-heuristic';
import { requestLogger } from './request-logger';
import { secretlessRedactor } from './secretless-redactor';
import { toolAllowlist } from './tool-allowlist';

export { piiValidator } from './pii-validator';
export { emailRedactor, EMAIL_PATTERN, EMAIL_REPLACEMENT, findEmails, redactEmails } from './email-redactor';
export { requestLogger, type RequestLoggerOptions } from './request-logger';
export { secretlessRedactor } from './secretless-redactor';
export { crossBoundaryGuard, DEFAULT_TOOL_SERVERS, inlineSecretScanner, type CrossBoundaryGuardOptions, type SecretScanner } from './cross-boundary-guard';
export { toolAllowlist, globMatches } from './tool-allowlist';
export { promptInjectionHeuristic, INJECTION_PHRASES } from './prompt-injection-heuristic';
export { applyOverrides, type SampleOverrides } from './common';
export * from './secrets';
export { OFFLOADED_SAMPLES, pooledSecretScanner, SECRET_SCAN, sampleWorkerPool } from './offload';

export interface SampleHostOptions extends InterceptorHostOptions {
  /** Where request-logger writes; default stderr. */
  log?: (line: string) => void;
  /** Run the stateless samples' large payloads on worker threads (what `serve-samples` does). */
  workers?: boolean | { size?: number; minPayloadBytes?: number };
}

/** Fresh registrations (fresh guard state) in the order `serve-samples` lists them. */
export function sampleRegistrations(options: { log?: (line: string) => void; scanner?: SecretScanner } = {}): InterceptorRegistration[] {
  return [
    piiValidator(),
    emailRedactor(),
    requestLogger({ log: options.log }),
    secretlessRedactor(),
    crossBoundaryGuard(options.scanner ? { scanner: options.scanner } : {}),
    toolAllowlist(),
    promptInjectionHeuristic(),
  ];
}

export function createSampleHost(options: SampleHostOptions = {}): InterceptorHost {
  let offload = options.offload;
  let scanner: SecretScanner | undefined;
  if (!offload && options.workers) {
    const settings = options.workers === true ? {} : options.workers;
    const { pool, problem } = sampleWorkerPool(settings);
    if (problem) process.stderr.write(`serve-samples: ${problem}\n`);
    offload = pool;
    if (pool) scanner = pooledSecretScanner(pool, settings.minPayloadBytes);
  }
  const host = new InterceptorHost({ serverInfo: { name: 'interceptor-console-samples', version: '0.1.0' }, ...options, ...(offload ? { offload } : {}) });
  for (const r of sampleRegistrations({ ...(options.log ? { log: options.log } : {}), ...(scanner ? { scanner } : {}) })) host.register(r);
  return host;
}
