// Durations in the gateway config. Each one ends up in a Node timer, which holds at most 2^31-1 ms
// (~24.8 days) and fires after 1 ms beyond: a chain timeoutMs of 3,000,000,000 cut every chain off at
// once. (backendTimeoutMs and sessionIdleTimeoutMs are compared by a sweep instead, where such a value
// silently means never.) One rule for all of them, the breakpoints' timeoutMs included (breakpoints.ts):
// at most a day, which no call, drain or idle session needs to exceed.
import { z } from 'zod';

/** The longest duration any `…Ms` field of the config takes: 24 h. */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

/** A whole number of milliseconds, at most MAX_DURATION_MS; add `.positive()` or `.nonnegative()`. */
export function durationMs(): z.ZodNumber {
  return z
    .number({ error: 'expected a number of milliseconds' })
    .int({ error: 'expected a whole number of milliseconds' })
    .max(MAX_DURATION_MS, { error: `at most ${MAX_DURATION_MS} ms (24 h): longer overflows Node's timers, which then fire at once` });
}
