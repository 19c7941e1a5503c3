// Breakpoints of a gateway (the debugger): where a live call pauses, and which calls. Shared by the config
// file (`breakpoints: [...]`, hot-reloaded), the console's API, the gateway's control endpoint and the CLI's
// `--break`. A breakpoint names one or more points of the path, a method glob, optionally a target glob
// (tool name, resource uri, prompt name), a principal, and for the after-chain points the chain's outcome.
import { z } from 'zod';
import { durationMs, MAX_DURATION_MS } from './durations';

/** The four points of a call's path where it can pause (a step also pauses before each interceptor). */
export const BREAK_POINTS = ['request-before-chain', 'request-after-chain', 'response-before-chain', 'response-after-chain'] as const;
export const BreakPointSchema = z.enum(BREAK_POINTS, {
  error: `expected one of ${BREAK_POINTS.map((p) => `"${p}"`).join(', ')}`,
});
export type BreakPoint = z.infer<typeof BreakPointSchema>;
/** Where a pause happened: one of the four points, or before one interceptor while stepping. */
export type PausePoint = BreakPoint | 'before-interceptor';

/**
 * How long an undecided pause waits by default: 30 s, half of the 60 s request timeout MCP SDK clients
 * use by default. With 60 s the client always gave up first (and cancelled) just as the pause ended.
 */
export const DEFAULT_PAUSE_TIMEOUT_MS = 30_000;

/**
 * The longest a pause may wait: a day. Node's timers hold at most 2^31-1 ms (~24.8 days) and fire at
 * once beyond that (a 3,000,000,000 ms timeout used to end the pause immediately), and no client keeps a
 * call open for a day anyway.
 */
export const MAX_PAUSE_TIMEOUT_MS = MAX_DURATION_MS;

export const BreakpointWhenSchema = z
  .strictObject({
    outcome: z.enum(['allow', 'blocked', 'mutated'], { error: 'expected "allow", "blocked" or "mutated"' }).optional(),
    blockedBy: z
      .string({ error: 'expected an interceptor name or "<server>/<interceptor>" (globs allowed)' })
      .min(1)
      .optional()
      .describe('Pauses when this interceptor blocked the chain (name or server/name; globs allowed).'),
  })
  .describe('Chain outcome to match (after-chain points only).');

export const BreakpointSchema = z
  .strictObject({
    id: z.string({ error: 'expected a string (a name for the breakpoint)' }).min(1).max(100).optional(),
    enabled: z.boolean({ error: 'expected true or false' }).default(true),
    at: z
      .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(BreakPointSchema, { error: 'expected a point or an array of points' }).min(1))
      .optional()
      .describe('Where to pause; default request-before-chain, or both after-chain points when `when` is set.'),
    method: z.string({ error: 'expected a method glob such as "tools/call" or "tools/*"' }).min(1).default('*'),
    target: z.string({ error: 'expected a glob on the tool name, resource uri or prompt name' }).min(1).optional(),
    principal: z.string({ error: 'expected a principal (case-insensitive; "anonymous" for none)' }).min(1).optional(),
    when: BreakpointWhenSchema.optional(),
    step: z.boolean({ error: 'expected true or false' }).default(false).describe('Also pause before each interceptor of the matching calls.'),
    timeoutMs: durationMs()
      .positive()
      .default(DEFAULT_PAUSE_TIMEOUT_MS)
      .describe('How long a pause waits for a decision; then onTimeout applies and the trace says so.'),
    onTimeout: z.enum(['continue', 'block'], { error: 'expected "continue" or "block"' }).default('continue'),
  })
  .transform((bp) => ({
    ...bp,
    at: bp.at ?? (bp.when ? (['request-after-chain', 'response-after-chain'] as BreakPoint[]) : (['request-before-chain'] as BreakPoint[])),
  }))
  .describe('A breakpoint: pauses matching live calls in the gateway until someone decides (or the timeout).');

export type BreakpointInput = z.input<typeof BreakpointSchema>;
export type Breakpoint = z.output<typeof BreakpointSchema>;

/** `*` matches any run of characters (slashes included), `?` one character; the rest is literal. */
export function globToRegExp(glob: string): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`);
}

/** The short name of a breakpoint: its id, else `method[:target] @ points`. */
export function breakpointLabel(bp: Breakpoint): string {
  if (bp.id) return bp.id;
  return `${bp.method}${bp.target ? `:${bp.target}` : ''}`;
}

/**
 * `method[:target]` as the CLI's --break and the console's quick entry write it: `tools/call:echo`,
 * `resources/read:test://*`, `tools/*`. Methods never contain ':', so the first one separates.
 */
export function parseBreakSpec(spec: string, extra: Partial<BreakpointInput> = {}): Breakpoint {
  const trimmed = spec.trim();
  if (trimmed.length === 0) throw new Error('A breakpoint needs a method, e.g. tools/call or tools/call:echo');
  const colon = trimmed.indexOf(':');
  const method = colon < 0 ? trimmed : trimmed.slice(0, colon);
  const target = colon < 0 ? undefined : trimmed.slice(colon + 1);
  if (method.length === 0) throw new Error(`"${spec}": the method before ':' is empty (write e.g. tools/call:echo)`);
  return BreakpointSchema.parse({ method, ...(target ? { target } : {}), ...extra });
}
