// The JSON Schema of the gateway config, generated from the zod schema (one source of truth).
import { z } from 'zod';
import { GatewayConfigSchema } from './schema';

/** The schema as written to resources/gateway-config.schema.json (stable, pretty-printed, trailing newline). */
export function gatewayConfigJsonSchema(): string {
  // io:'input' describes what a user writes: fields with defaults are optional.
  const schema = z.toJSONSchema(GatewayConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const out = { ...schema, title: 'Interceptor Console gateway config' };
  return `${JSON.stringify(out, null, 2)}\n`;
}
