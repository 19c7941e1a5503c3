// Procedures of the breakpoints debugger: the calls paused right now (all gateways of this console), the
// decisions on them, and each gateway's breakpoints (its config file's, read-only here, and the live ones a
// console sets). The same shapes serve a headless gateway's control endpoint (src/main/gateway/breakpoints).
import { z } from 'zod';
import { BreakpointSchema } from '../config/breakpoints';
import { PauseDecisionSchema } from '../trace/pauses';
import { GatewayIdSchema } from './models';

function proc<I extends z.ZodType, O extends z.ZodType>(input: I, output: O, summary: string) {
  return { input, output, summary };
}

/** A paused call as it crosses the API (the full type is PausedCall in src/shared/trace/pauses.ts). */
export const PausedCallSchema = z.looseObject({
  id: z.string(),
  gateway: z.string(),
  sessionId: z.string(),
  executionId: z.string(),
  method: z.string(),
  target: z.string().optional(),
  principal: z.string().optional(),
  at: z.string(),
  breakpoint: z.string(),
  interceptor: z.string().optional(),
  payload: z.unknown(),
  pausedAt: z.string(),
  deadline: z.string(),
  timeoutMs: z.number(),
  onTimeout: z.enum(['continue', 'block']),
  allowed: z.array(z.string()),
});

export const GatewayBreakpointsSchema = z.object({
  gateway: z.string(),
  /** From the gateway's config file (edit the file, or the Chain screen's JSON tab, to change them). */
  config: z.array(z.looseObject({})),
  /** Set live from a console; kept while the console runs, applied whenever the gateway (re)starts. */
  live: z.array(z.looseObject({})),
});

export const breakpointsProcedures = {
  'breakpoints.paused': proc(z.object({}).optional(), z.array(PausedCallSchema), 'Calls paused at a breakpoint right now, in every running gateway.'),
  'breakpoints.decide': proc(
    z.object({ gateway: GatewayIdSchema, id: z.string().min(1).max(100), decision: PauseDecisionSchema }),
    z.object({ done: z.literal(true) }),
    'Continue, edit and continue, block, answer or step a paused call (validated; recorded as decided by "you").',
  ),
  'breakpoints.get': proc(z.object({ id: GatewayIdSchema }), GatewayBreakpointsSchema, "A gateway's breakpoints: its config file's and the live ones."),
  'breakpoints.set': proc(
    z.object({ id: GatewayIdSchema, live: z.array(BreakpointSchema).max(200) }),
    GatewayBreakpointsSchema,
    "Replaces a gateway's live breakpoints (its config file's stay).",
  ),
  'breakpoints.attach': proc(
    z.object({
      name: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .regex(/^[\w.-]+$/, { error: 'letters, digits, ".", "-" or "_" only' }),
      url: z.url({ error: 'expected the control endpoint URL, e.g. http://127.0.0.1:7411' }),
      token: z.string().min(16).max(1000),
    }),
    z.object({ name: z.string(), url: z.string() }),
    "Attaches to a gateway running in another process through its control endpoint (config `control`): its paused calls join this console's.",
  ),
  'breakpoints.detach': proc(z.object({ name: z.string().min(1) }), z.object({ done: z.literal(true) }), 'Detaches from a gateway of another process.'),
  'breakpoints.attached': proc(
    z.object({}).optional(),
    z.array(z.object({ name: z.string(), url: z.string(), problem: z.string().optional() })),
    'The gateways of other processes this console is attached to, with why one is unreachable.',
  ),
} as const;
