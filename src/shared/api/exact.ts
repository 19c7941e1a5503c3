// Ties a contract schema to the domain type it carries. The dispatcher validates every handler's output
// against its schema and passes on only what the schema knows (zod strips unknown keys), so a schema that
// misses a field of the domain type silently drops it on the way to a screen, and one that is stricter
// than the domain type fails the call (`invalid_output`). Mutual assignability would not catch the first
// (an optional field missing on one side still assigns both ways); this identity test does.
import type { z } from 'zod';

/** True iff A and B are the same type: every key on both sides, each with the same type and optionality. */
export type Exactly<A, B> = (<G>() => G extends A ? 1 : 2) extends <G>() => G extends B ? 1 : 2 ? true : false;

/**
 * `exact<T>()(schema)` returns the schema unchanged, and fails to compile unless its output type is exactly
 * T (the error names both types). Use it on every schema that carries a domain type across the boundary.
 */
export function exact<T>() {
  return <S extends z.ZodType<T>>(schema: S & (Exactly<z.output<S>, T> extends true ? unknown : { outputDiffersFrom: T; output: z.output<S> })): S => schema;
}
