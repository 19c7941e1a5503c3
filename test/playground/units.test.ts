// Pure parts of the Playground: JSON paths located in editor text, the schema subset behind generated
// forms ($ref/$defs, nullable, defaults, bounds), and the failure-simulation registry.
import { describe, expect, it } from 'vitest';
import { locateJsonPath, parseJsonPath } from '../../src/renderer/src/components/json-editor/json-path';
import { initialValue, kindOf, resolve, unwrapNullable, validate, type JsonSchema } from '../../src/renderer/src/components/schema-form/schema';
import { FailureSimulations } from '../../src/main/services/playground/failure-simulations';

describe('JSON paths in editor text', () => {
  it('parses dotted, indexed and quoted segments', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath('$.arguments.message')).toEqual(['arguments', 'message']);
    expect(parseJsonPath('$.content[0].text')).toEqual(['content', 0, 'text']);
    expect(parseJsonPath(`$['a b']["c\\"d"]`)).toEqual(['a b', 'c"d']);
    expect(parseJsonPath('arguments')).toBeUndefined();
    expect(parseJsonPath('$.a[')).toBeUndefined();
  });

  it('finds the key and value of a member, and array elements', () => {
    const text = JSON.stringify({ name: 'echo', arguments: { message: 'x', list: [1, { deep: true }] } }, null, 2);
    const range = locateJsonPath(text, ['arguments'])!;
    expect(text.slice(range.from, range.to)).toMatch(/^"arguments": \{[\s\S]*\}$/);
    const el = locateJsonPath(text, ['arguments', 'list', 1, 'deep'])!;
    expect(text.slice(el.from, el.to)).toBe('"deep": true');
    const idx = locateJsonPath(text, ['arguments', 'list', 0])!;
    expect(text.slice(idx.from, idx.to)).toBe('1');
    expect(locateJsonPath(text, ['missing'])).toBeUndefined();
    expect(locateJsonPath('{"broken": ', ['broken'])).toBeUndefined();
  });

  it('copes with escapes inside strings', () => {
    const text = '{"a": "quote \\" and } brace", "b": 2}';
    const r = locateJsonPath(text, ['b'])!;
    expect(text.slice(r.from, r.to)).toBe('"b": 2');
  });
});

describe('schema subset for generated forms', () => {
  const schema: JsonSchema = {
    type: 'object',
    $defs: { Unit: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' } },
    properties: {
      city: { type: 'string', minLength: 2 },
      units: { $ref: '#/$defs/Unit' },
      days: { type: 'integer', minimum: 1, maximum: 14 },
      note: { type: ['string', 'null'] },
      tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
      flag: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
    },
    required: ['city', 'units'],
    additionalProperties: false,
  };

  it('resolves $ref into $defs and unwraps nullable types', () => {
    expect(resolve(schema.properties!.units!, schema).enum).toEqual(['metric', 'imperial']);
    expect(unwrapNullable(schema.properties!.note!, schema)).toEqual({ schema: { type: 'string' }, nullable: true });
    expect(unwrapNullable(schema.properties!.flag!, schema).nullable).toBe(true);
    expect(kindOf(unwrapNullable(schema.properties!.flag!, schema).schema)).toBe('boolean');
  });

  it('starts required fields from their defaults', () => {
    expect(initialValue(schema, schema)).toEqual({ city: '', units: 'metric' });
  });

  it('reports bounds, enums, required, extra keys and array limits with paths', () => {
    const issues = validate(schema, { city: 'X', units: 'kelvin', days: 30, note: null, tags: ['a', 'b', 'c'], other: 1 });
    const byPath = Object.fromEntries(issues.map((i) => [i.path.join('.'), i.message]));
    expect(byPath.city).toContain('at least 2');
    expect(byPath.units).toContain('one of');
    expect(byPath.days).toContain('≤ 14');
    expect(byPath.tags).toContain('at most 2');
    expect(byPath.other).toContain('not allowed');
    expect(byPath.note).toBeUndefined();
    expect(validate(schema, { units: 'metric' })[0]).toEqual({ path: ['city'], message: 'is required' });
    expect(validate(schema, { city: 'Oslo', units: 'metric', days: 3 })).toEqual([]);
  });
});

describe('failure simulations', () => {
  const target = {
    id: 'samples/pii-validator',
    server: 'samples',
    name: 'pii-validator',
    type: 'validation' as const,
    event: 'tools/call',
    phase: 'request' as const,
  };

  it('fails exactly the next N matching invocations, then disarms itself', () => {
    const changes: string[] = [];
    const sims = new FailureSimulations((g) => changes.push(g));
    sims.arm('demo', { server: 'samples', name: 'pii-validator', kind: 'crash', count: 2 });
    const simulate = sims.simulatorFor('demo');
    expect(simulate({ ...target, name: 'email-redactor' })).toBeUndefined();
    expect(sims.simulatorFor('other')(target)).toBeUndefined();
    expect(simulate(target)).toBe('crash');
    expect(sims.list('demo')[0]?.remaining).toBe(1);
    expect(simulate(target)).toBe('crash');
    expect(simulate(target)).toBeUndefined();
    expect(sims.list()).toEqual([]);
    expect(changes.length).toBeGreaterThanOrEqual(3);
  });

  it('narrows by event and phase, and disarms by id or all', () => {
    const sims = new FailureSimulations();
    const a = sims.arm('demo', { server: 'samples', name: 'pii-validator', kind: 'timeout', count: 5, phase: 'response' });
    sims.arm('demo', { server: 'samples', name: 'pii-validator', kind: 'crash', count: 5, event: 'resources/read' });
    expect(sims.simulatorFor('demo')(target)).toBeUndefined();
    expect(sims.simulatorFor('demo')({ ...target, phase: 'response' })).toBe('timeout');
    expect(sims.disarm('demo', a.id)).toBe(1);
    expect(() => sims.disarm('demo', a.id)).toThrow(/No armed simulation/);
    expect(sims.disarm('demo')).toBe(1);
    expect(sims.list('demo')).toEqual([]);
  });
});
