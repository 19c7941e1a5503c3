// Authoring types for interceptors served by an InterceptorHost: what an author registers and what
// a handler receives and returns. The host fills `interceptor`, `type`, `phase` and `durationMs`.
import type { Phase } from '../../../shared/protocol/constants';
import type { Compat, ConfigSchema, InvocationContext, Mode, PriorityHint, Severity, ValidationMessage } from '../../../shared/protocol/schemas';

/** `both` expands into two hooks, request first (C# `InterceptorPhase.Both`). */
export type PhaseOption = Phase | 'both';

export interface HandlerContext<C = Record<string, unknown>> {
  /** The invoke's `config`, or the registration's `defaultConfig`, already checked against `configSchema`. */
  config: C;
  context: InvocationContext | undefined;
  event: string;
  phase: Phase;
  /** Aborted when the invoke times out or the invoker cancels the request. */
  signal: AbortSignal;
}

export interface ValidationOutcome {
  valid: boolean;
  /** Left out on purpose by some interceptors; the invoker treats a missing severity as `error` (A3). */
  severity?: Severity | string;
  messages?: ValidationMessage[];
  suggestions?: { path: string; value: unknown }[];
  info?: Record<string, unknown>;
}

export interface MutationOutcome {
  modified: boolean;
  /** The full replacement; may be left out when `modified` is false (the host echoes the input). */
  payload?: unknown;
  info?: Record<string, unknown>;
}

export interface SinkOutcome {
  recorded: boolean;
  metrics?: Record<string, number>;
  info?: Record<string, unknown>;
}

type MaybePromise<T> = T | Promise<T>;

interface RegistrationBase<C> {
  name: string;
  description?: string;
  version?: string;
  /** Default `['*']`. Exact names, `*`, namespace globs such as `tools/*`. */
  events?: string[];
  phase: PhaseOption;
  mode?: Mode;
  failOpen?: boolean;
  priorityHint?: PriorityHint;
  compat?: Compat;
  configSchema?: ConfigSchema;
  /** Used when an invoke carries no `config` (statelessness, PR #43); validated like a sent config. */
  defaultConfig?: C;
  _meta?: Record<string, unknown>;
}

export interface ValidatorRegistration<C = Record<string, unknown>> extends RegistrationBase<C> {
  /** A boolean is wrapped as `{valid}` (as the C# SDK does). */
  handler: (payload: unknown, ctx: HandlerContext<C>) => MaybePromise<ValidationOutcome | boolean>;
}

export interface MutatorRegistration<C = Record<string, unknown>> extends RegistrationBase<C> {
  handler: (payload: unknown, ctx: HandlerContext<C>) => MaybePromise<MutationOutcome>;
}

export interface SinkRegistration<C = Record<string, unknown>> extends RegistrationBase<C> {
  /** Returning nothing counts as `{recorded: true}`. */
  handler: (payload: unknown, ctx: HandlerContext<C>) => MaybePromise<SinkOutcome | void>;
}

/** A registration tagged with its type: what the samples export and what `InterceptorHost.register` takes. */
export type InterceptorRegistration =
  ({ type: 'validation' } & ValidatorRegistration<never>) | ({ type: 'mutation' } & MutatorRegistration<never>) | ({ type: 'sink' } & SinkRegistration<never>);

// Helpers that keep the config type while producing a tagged registration.
export function validator<C = Record<string, unknown>>(r: ValidatorRegistration<C>): InterceptorRegistration {
  return { ...r, type: 'validation' } as unknown as InterceptorRegistration;
}
export function mutator<C = Record<string, unknown>>(r: MutatorRegistration<C>): InterceptorRegistration {
  return { ...r, type: 'mutation' } as unknown as InterceptorRegistration;
}
export function sink<C = Record<string, unknown>>(r: SinkRegistration<C>): InterceptorRegistration {
  return { ...r, type: 'sink' } as unknown as InterceptorRegistration;
}
