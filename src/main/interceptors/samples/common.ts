// What every sample factory accepts: the conformance runner and tests rebind a sample under another
// name, other events or phases (e.g. `security/cross-boundary-guard` on tools/call only).
import type { Mode, PriorityHint } from '../../../shared/protocol/schemas';
import type { InterceptorRegistration, PhaseOption } from '../host/types';

export interface SampleOverrides {
  name?: string;
  events?: string[];
  phase?: PhaseOption;
  mode?: Mode;
  failOpen?: boolean;
  priorityHint?: PriorityHint;
}

export function applyOverrides(reg: InterceptorRegistration, o: SampleOverrides = {}): InterceptorRegistration {
  const out = { ...reg } as InterceptorRegistration & Record<string, unknown>;
  for (const key of ['name', 'events', 'phase', 'mode', 'failOpen', 'priorityHint'] as const) {
    if (o[key] !== undefined) out[key] = o[key] as never;
  }
  return out;
}

/** The JSON text an interceptor scans: what the C# samples call "the serialized payload". */
export function jsonText(payload: unknown): string {
  return JSON.stringify(payload) ?? '';
}
