// Turns the user's answer to a server→client request into the result the server gets, after checking
// it: a sampling reply becomes a CreateMessageResult; an accepted form elicitation's content is checked
// against the request's own requestedSchema (a zod schema built from it), so a server never receives
// content its schema refuses. A refusal becomes a JSON-RPC error.
import { ProtocolError, type CreateMessageResult, type ElicitResult } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { ApiError } from '../../../../shared/api/envelope';
import type { ServerRequestAnswer, ServerRequestMethod } from '../../../../shared/api/models-client-requests';

/** JSON-RPC code the MCP spec suggests for "user rejected the request". */
const USER_REJECTED = -1;

type Schema = Record<string, unknown>;

/** The result the SDK sends back for each server→client request the user answers. */
export interface ServerRequestResults {
  'sampling/createMessage': CreateMessageResult;
  'elicitation/create': ElicitResult;
}

/** Elicitation content as the spec allows it: flat primitive fields (see contentSchema). */
type ElicitContent = NonNullable<ElicitResult['content']>;

// One builder per method, typed by the map above: resultFor picks the builder of its method, and
// TypeScript follows the method into the result type (no cast between the answer and the SDK).
const builders: {
  [M in ServerRequestMethod]: (params: Record<string, unknown>, answer: Exclude<ServerRequestAnswer, { kind: 'reject' }>) => ServerRequestResults[M];
} = {
  'sampling/createMessage': (_params, answer) => {
    if (answer.kind !== 'sampling')
      throw new ApiError('invalid_input', `A sampling request takes a sampling reply (model, role, text) or a rejection, not an ${answer.kind} answer.`);
    return {
      model: answer.model,
      role: answer.role,
      content: { type: 'text', text: answer.text },
      ...(answer.stopReason ? { stopReason: answer.stopReason } : {}),
    };
  },
  'elicitation/create': (params, answer) => {
    if (answer.kind !== 'elicitation')
      throw new ApiError('invalid_input', `An elicitation request takes accept, decline or cancel, not a ${answer.kind} answer.`);
    if (answer.action !== 'accept') return { action: answer.action };
    if (params.mode === 'url') return { action: 'accept' };
    const schema = contentSchema((params.requestedSchema ?? {}) as Schema);
    const parsed = schema.safeParse(answer.content ?? {});
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'content'}: ${i.message}`).join('; ');
      throw new ApiError('invalid_input', `The answer does not fit the server's requested schema: ${problems}`);
    }
    return { action: 'accept', content: parsed.data };
  },
};

export function resultFor<M extends ServerRequestMethod>(method: M, params: Record<string, unknown>, answer: ServerRequestAnswer): ServerRequestResults[M] {
  if (answer.kind === 'reject') {
    throw new ProtocolError(USER_REJECTED, answer.message || `The user rejected this ${method} request in the Interceptor Console.`);
  }
  return builders[method](params, answer);
}

/**
 * The zod schema of an elicitation's content: a flat object of the primitive fields the spec allows
 * (string with format/length, number, integer, boolean, single-select enum by `enum` or `oneOf` consts,
 * multi-select arrays of those), required ones required, unknown keys refused.
 */
export function contentSchema(requested: Schema): z.ZodType<ElicitContent> {
  const properties = (requested.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(requested.required) ? (requested.required as string[]) : []);
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(properties)) {
    const one = fieldSchema(field);
    shape[key] = required.has(key) ? one : one.optional();
  }
  // fieldSchema builds only the primitive fields ElicitContent allows; the shape is built at run time.
  return z.strictObject(shape) as unknown as z.ZodType<ElicitContent>;
}

/** The values of a single-select enum: `enum`, or the `const` of each `oneOf`/`anyOf` alternative. */
export function enumValues(field: Schema): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.map(String);
  const alternatives = (field.oneOf ?? field.anyOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.every((a) => a && a.const !== undefined)) return alternatives.map((a) => String(a.const));
  return undefined;
}

function fieldSchema(field: Schema): z.ZodType {
  const values = enumValues(field);
  if (values && values.length > 0 && field.type !== 'array') return z.enum(values as [string, ...string[]]);
  switch (field.type) {
    case 'boolean':
      return z.boolean();
    case 'number':
    case 'integer': {
      let n = field.type === 'integer' ? z.number().int() : z.number();
      if (typeof field.minimum === 'number') n = n.min(field.minimum);
      if (typeof field.maximum === 'number') n = n.max(field.maximum);
      return n;
    }
    case 'array': {
      const items = enumValues((field.items ?? {}) as Schema);
      let a = z.array(items && items.length > 0 ? z.enum(items as [string, ...string[]]) : z.string());
      if (typeof field.minItems === 'number') a = a.min(field.minItems);
      if (typeof field.maxItems === 'number') a = a.max(field.maxItems);
      return a;
    }
    case 'string': {
      let s: z.ZodString = z.string();
      if (typeof field.minLength === 'number') s = s.min(field.minLength);
      if (typeof field.maxLength === 'number') s = s.max(field.maxLength);
      if (field.format === 'email') return s.pipe(z.email());
      if (field.format === 'uri') return s.pipe(z.url());
      if (field.format === 'date') return s.pipe(z.iso.date());
      if (field.format === 'date-time') return s.pipe(z.iso.datetime({ offset: true }));
      return s;
    }
    default:
      // Outside the spec's primitive set: pass whatever primitive the user gave.
      return z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
  }
}
