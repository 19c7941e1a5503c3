// Small pieces of the invoker kept apart from the client's connection management: the wire params of
// one interceptor/invoke, and a deadline on a promise the SDK does not bound itself.
import type { InvokeParams } from '../../../shared/protocol/schemas';

/** Top-level optional fields that are absent (undefined or null) are left out; values are passed by reference. */
export function invokeWireParams(params: InvokeParams, timeoutMs: number | undefined): Record<string, unknown> {
  const wire: Record<string, unknown> = { ...params };
  if (timeoutMs === undefined) delete wire.timeoutMs;
  else wire.timeoutMs = timeoutMs;
  for (const key of ['config', 'context', '_meta'] as const) if (wire[key] === undefined || wire[key] === null) delete wire[key];
  return wire;
}

export function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`deadline of ${ms}ms passed`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
