// The JSON Schema subset the generated forms understand (interceptor configSchema, tool inputSchema):
// objects, arrays, enums, const, booleans, numbers/integers with bounds, strings, nullable types,
// defaults, required, and `$ref` into `$defs`/`definitions`. Anything else (oneOf, patternProperties…)
// is edited as raw JSON by the form. Also a small validator over the same subset for inline errors.

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  title?: string;
  description?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  [k: string]: unknown;
};

export type FieldKind = 'object' | 'array' | 'enum' | 'boolean' | 'number' | 'integer' | 'string' | 'null' | 'raw';

/** A schema with its `$ref` resolved against the root's `$defs`/`definitions` (cycles stop at depth 32). */
export function resolve(schema: JsonSchema | undefined, root: JsonSchema, depth = 0): JsonSchema {
  if (!schema) return {};
  if (schema.$ref && depth < 32) {
    const m = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const name = m ? decodeURIComponent(m[2]!.replace(/~1/g, '/').replace(/~0/g, '~')) : undefined;
    const target = name ? (m![1] === '$defs' ? root.$defs : root.definitions)?.[name] : undefined;
    if (target) {
      const { $ref: _ref, ...rest } = schema;
      return resolve({ ...target, ...rest }, root, depth + 1);
    }
  }
  return schema;
}

/** The non-null alternative of a nullable schema (`type: [T, "null"]` or `anyOf: [T, {type:"null"}]`), and whether null is allowed. */
export function unwrapNullable(schema: JsonSchema, root: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    const nullable = types.length !== schema.type.length;
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable };
  }
  const alts = schema.anyOf ?? schema.oneOf;
  if (alts) {
    const resolved = alts.map((a) => resolve(a, root));
    const nonNull = resolved.filter((a) => a.type !== 'null');
    if (nonNull.length === 1 && resolved.length === 2) {
      const { anyOf: _a, oneOf: _o, ...rest } = schema;
      return { schema: { ...rest, ...nonNull[0] }, nullable: true };
    }
  }
  return { schema, nullable: false };
}

export function kindOf(schema: JsonSchema): FieldKind {
  if (schema.enum || schema.const !== undefined) return 'enum';
  const type = Array.isArray(schema.type) ? (schema.type.length === 1 ? schema.type[0] : undefined) : schema.type;
  if (type === 'object' || (!type && schema.properties)) return 'object';
  if (type === 'array') return schema.items ? 'array' : 'raw';
  if (type === 'boolean' || type === 'number' || type === 'integer' || type === 'string' || type === 'null') return type;
  return 'raw';
}

/** The value a new field starts with: its default, else an empty value of its kind. */
export function initialValue(schema: JsonSchema | undefined, root: JsonSchema): unknown {
  const s = unwrapNullable(resolve(schema, root), root).schema;
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.const !== undefined) return s.const;
  switch (kindOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = initialValue(s.properties?.[key], root);
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'enum':
      return s.enum?.[0];
    case 'number':
    case 'integer':
      return s.minimum ?? 0;
    case 'string':
      return '';
    default:
      return undefined;
  }
}

export interface SchemaIssue {
  path: (string | number)[];
  message: string;
}

/** Checks `value` against the subset above; unknown keywords are ignored (the server has the last word). */
export function validate(schema: JsonSchema, value: unknown, root: JsonSchema = schema, path: (string | number)[] = []): SchemaIssue[] {
  const resolved = resolve(schema, root);
  const { schema: s, nullable } = unwrapNullable(resolved, root);
  if (value === null && nullable) return [];
  const issue = (message: string): SchemaIssue[] => [{ path, message }];
  if (s.enum && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value)))
    return issue(`must be one of ${s.enum.map((e) => JSON.stringify(e)).join(', ')}`);
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) return issue(`must be ${JSON.stringify(s.const)}`);
  const kind = kindOf(s);
  switch (kind) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return issue('must be an object');
      const obj = value as Record<string, unknown>;
      const out: SchemaIssue[] = [];
      for (const key of s.required ?? []) if (obj[key] === undefined) out.push({ path: [...path, key], message: 'is required' });
      for (const [key, v] of Object.entries(obj)) {
        const prop = s.properties?.[key];
        if (prop) out.push(...validate(prop, v, root, [...path, key]));
        else if (s.additionalProperties === false) out.push({ path: [...path, key], message: 'is not allowed here' });
        else if (typeof s.additionalProperties === 'object') out.push(...validate(s.additionalProperties, v, root, [...path, key]));
      }
      return out;
    }
    case 'array': {
      if (!Array.isArray(value)) return issue('must be an array');
      const out: SchemaIssue[] = [];
      if (s.minItems !== undefined && value.length < s.minItems) out.push({ path, message: `needs at least ${s.minItems} item(s)` });
      if (s.maxItems !== undefined && value.length > s.maxItems) out.push({ path, message: `allows at most ${s.maxItems} item(s)` });
      value.forEach((v, i) => out.push(...validate(s.items ?? {}, v, root, [...path, i])));
      return out;
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : issue('must be true or false');
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || Number.isNaN(value)) return issue('must be a number');
      if (kind === 'integer' && !Number.isInteger(value)) return issue('must be a whole number');
      if (s.minimum !== undefined && value < s.minimum) return issue(`must be ≥ ${s.minimum}`);
      if (s.maximum !== undefined && value > s.maximum) return issue(`must be ≤ ${s.maximum}`);
      if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) return issue(`must be > ${s.exclusiveMinimum}`);
      if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum) return issue(`must be < ${s.exclusiveMaximum}`);
      return [];
    }
    case 'string': {
      if (typeof value !== 'string') return issue('must be a string');
      if (s.minLength !== undefined && value.length < s.minLength) return issue(`needs at least ${s.minLength} character(s)`);
      if (s.maxLength !== undefined && value.length > s.maxLength) return issue(`allows at most ${s.maxLength} character(s)`);
      if (s.pattern) {
        try {
          if (!new RegExp(s.pattern, 'u').test(value)) return issue(`must match ${s.pattern}`);
        } catch {
          return [];
        }
      }
      return [];
    }
    case 'null':
      return value === null ? [] : issue('must be null');
    default:
      return [];
  }
}

export function formatIssuePath(path: (string | number)[]): string {
  return path.length === 0
    ? '(value)'
    : path
        .map((p) => (typeof p === 'number' ? `[${p}]` : p))
        .join('.')
        .replace(/\.\[/g, '[');
}
