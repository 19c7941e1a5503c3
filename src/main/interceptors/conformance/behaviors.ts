// Binds a fixture's named behaviour to a real interceptor registration on the host SDK. The
// suite's behaviours (README) plus this project's extensions; the two security behaviours are the
// shipped samples, so the conformance run certifies exactly the code users run.
import type { InterceptorRegistration, PhaseOption } from '../host/types';
import { mutator, sink, validator } from '../host/types';
import { crossBoundaryGuard } from '../samples/cross-boundary-guard';
import { secretlessRedactor } from '../samples/secretless-redactor';
import type { FixtureInterceptor } from './fixture';

type Kind = FixtureInterceptor['type'];

export class BehaviorError extends Error {
  override name = 'BehaviorError';
}

interface BindContext {
  /** Aborted when the fixture's session ends, so `hang` never outlives it. */
  sessionSignal: AbortSignal;
}

function common(fi: FixtureInterceptor) {
  const base: {
    name: string;
    events: string[];
    phase: PhaseOption;
    mode?: 'active' | 'audit';
    failOpen?: boolean;
    priorityHint?: FixtureInterceptor['priorityHint'];
  } = { name: fi.name, events: fi.events, phase: fi.phases };
  if (fi.mode !== undefined) base.mode = fi.mode;
  if (fi.failOpen !== undefined) base.failOpen = fi.failOpen;
  if (fi.priorityHint !== undefined) base.priorityHint = fi.priorityHint;
  return base;
}

function noteOf(payload: unknown): unknown {
  const args = (payload as { arguments?: unknown } | null)?.arguments;
  return args && typeof args === 'object' ? (args as { note?: unknown }).note : undefined;
}

function withNote(payload: unknown, note: string): unknown {
  const p = structuredClone(payload) as { arguments: Record<string, unknown> };
  p.arguments.note = note;
  return p;
}

function waitForAbort(a: AbortSignal, b: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fire = () => reject(new Error('hang behaviour cancelled'));
    if (a.aborted || b.aborted) return fire();
    a.addEventListener('abort', fire, { once: true });
    b.addEventListener('abort', fire, { once: true });
  });
}

const deny = (message: string) => ({ valid: false, severity: 'error', messages: [{ message, severity: 'error' as const }] });

/** Which interceptor types each behaviour can be. */
const KINDS: Record<string, Kind[]> = {
  'allow-all': ['validation'],
  'deny-all': ['validation'],
  'require-note': ['validation'],
  'require-uppercase-note': ['validation'],
  'warn-all': ['validation'],
  'invalid-no-severity': ['validation'],
  'uppercase-note': ['mutation'],
  'append-note': ['mutation'],
  record: ['sink'],
  crash: ['validation', 'mutation', 'sink'],
  hang: ['validation', 'mutation', 'sink'],
  'cross-boundary-guard': ['validation'],
  'secretless-redactor': ['mutation'],
};

export function bindBehavior(fi: FixtureInterceptor, ctx: BindContext): InterceptorRegistration {
  const [behavior, arg] = splitBehavior(fi.behavior);
  const kinds = KINDS[behavior];
  if (!kinds) throw new BehaviorError(`unknown behavior "${fi.behavior}" for ${fi.name}; known: ${Object.keys(KINDS).join(', ')}, append-note:<suffix>`);
  if (!kinds.includes(fi.type)) {
    throw new BehaviorError(`behavior "${behavior}" cannot be a ${fi.type} interceptor (${fi.name}); it is ${kinds.join(' or ')}`);
  }
  if (behavior === 'append-note' && arg === undefined) throw new BehaviorError(`behavior append-note needs a suffix: "append-note:<suffix>" (${fi.name})`);
  const c = common(fi);

  switch (behavior) {
    case 'allow-all':
      return validator({ ...c, handler: () => ({ valid: true }) });
    case 'deny-all':
      return validator({ ...c, handler: () => deny('denied by policy') });
    case 'require-note':
      return validator({ ...c, handler: (p) => (typeof noteOf(p) === 'string' && noteOf(p) !== '' ? { valid: true } : deny('note is required')) });
    case 'require-uppercase-note':
      return validator({
        ...c,
        handler: (p) => {
          const note = noteOf(p);
          return typeof note === 'string' && note === note.toUpperCase() ? { valid: true } : deny('note must be uppercase');
        },
      });
    case 'warn-all':
      return validator({ ...c, handler: () => ({ valid: false, severity: 'warn', messages: [{ message: 'warned by policy', severity: 'warn' }] }) });
    case 'invalid-no-severity':
      return validator({ ...c, handler: () => ({ valid: false }) });
    case 'uppercase-note':
      return mutator({
        ...c,
        handler: (p) => {
          const note = noteOf(p);
          return typeof note === 'string' ? { modified: true, payload: withNote(p, note.toUpperCase()) } : { modified: false, payload: p };
        },
      });
    case 'append-note':
      return mutator({
        ...c,
        handler: (p) => {
          const args = (p as { arguments?: unknown } | null)?.arguments;
          if (!args || typeof args !== 'object') return { modified: false, payload: p };
          const note = noteOf(p);
          return { modified: true, payload: withNote(p, `${typeof note === 'string' ? note : ''}${arg}`) };
        },
      });
    case 'record':
      return sink({ ...c, handler: () => ({ recorded: true }) });
    case 'crash': {
      const handler = () => {
        throw new Error(`${fi.name} crashed on purpose (conformance behavior "crash")`);
      };
      if (fi.type === 'validation') return validator({ ...c, handler });
      if (fi.type === 'mutation') return mutator({ ...c, handler });
      return sink({ ...c, handler });
    }
    case 'hang': {
      const handler = (_p: unknown, h: { signal: AbortSignal }) => waitForAbort(h.signal, ctx.sessionSignal);
      if (fi.type === 'validation') return validator({ ...c, handler });
      if (fi.type === 'mutation') return mutator({ ...c, handler });
      return sink({ ...c, handler });
    }
    case 'cross-boundary-guard':
      return crossBoundaryGuard(c);
    case 'secretless-redactor':
      return secretlessRedactor(c);
    default:
      throw new BehaviorError(`unknown behavior "${fi.behavior}"`);
  }
}

function splitBehavior(b: string): [string, string | undefined] {
  const i = b.indexOf(':');
  return i < 0 ? [b, undefined] : [b.slice(0, i), b.slice(i + 1)];
}
