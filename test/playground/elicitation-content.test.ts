// The core's check of an accepted elicitation's content against the request's requestedSchema, and the
// results the other answers become. Pure functions: no server needed.
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/client';
import { contentSchema, enumValues, resultFor } from '../../src/main/services/playground/client-requests/answers';
import { ApiError } from '../../src/shared/api/envelope';

const requestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    ratio: { type: 'number', maximum: 1 },
    ok: { type: 'boolean' },
    site: { type: 'string', format: 'uri' },
    born: { type: 'string', format: 'date' },
    color: { type: 'string', enum: ['red', 'green'] },
    hero: {
      type: 'string',
      oneOf: [
        { const: 'h1', title: 'Superman' },
        { const: 'h2', title: 'Batman' },
      ],
    },
    fish: { type: 'array', minItems: 1, maxItems: 2, items: { anyOf: [{ const: 'f1' }, { const: 'f2' }, { const: 'f3' }] } },
  },
  required: ['name', 'age'],
};

describe('elicitation content against requestedSchema', () => {
  const schema = contentSchema(requestedSchema);
  const ok = (content: Record<string, unknown>) => schema.safeParse(content).success;

  it('accepts content that fits, optional fields left out', () => {
    expect(ok({ name: 'Ada', age: 36 })).toBe(true);
    expect(
      ok({ name: 'Ada', age: 36, ratio: 0.5, ok: false, site: 'https://ada.example', born: '1815-12-10', color: 'red', hero: 'h2', fish: ['f1', 'f3'] }),
    ).toBe(true);
  });

  it('refuses what the schema refuses', () => {
    expect(ok({ age: 36 })).toBe(false); // required name missing
    expect(ok({ name: 'A', age: 36 })).toBe(false); // minLength
    expect(ok({ name: 'Ada', age: 36.5 })).toBe(false); // integer
    expect(ok({ name: 'Ada', age: 151 })).toBe(false); // maximum
    expect(ok({ name: 'Ada', age: '36' })).toBe(false); // type
    expect(ok({ name: 'Ada', age: 36, site: 'not a url' })).toBe(false);
    expect(ok({ name: 'Ada', age: 36, born: '10/12/1815' })).toBe(false);
    expect(ok({ name: 'Ada', age: 36, color: 'blue' })).toBe(false);
    expect(ok({ name: 'Ada', age: 36, hero: 'Superman' })).toBe(false); // the title is not the value
    expect(ok({ name: 'Ada', age: 36, fish: [] })).toBe(false); // minItems
    expect(ok({ name: 'Ada', age: 36, fish: ['f4'] })).toBe(false);
    expect(ok({ name: 'Ada', age: 36, extra: 1 })).toBe(false); // not in the schema
  });

  it('reads single-select values from enum or oneOf consts', () => {
    expect(enumValues(requestedSchema.properties.color)).toEqual(['red', 'green']);
    expect(enumValues(requestedSchema.properties.hero)).toEqual(['h1', 'h2']);
    expect(enumValues(requestedSchema.properties.name)).toBeUndefined();
  });
});

describe('answers into results', () => {
  const elicitation = { message: 'who?', requestedSchema };

  it('a sampling reply becomes a text CreateMessageResult', () => {
    expect(resultFor('sampling/createMessage', {}, { kind: 'sampling', model: 'm', role: 'assistant', text: 'hi', stopReason: 'endTurn' })).toEqual({
      model: 'm',
      role: 'assistant',
      content: { type: 'text', text: 'hi' },
      stopReason: 'endTurn',
    });
  });

  it('an accepted form carries the checked content; decline and cancel carry none; URL mode accepts without content', () => {
    expect(resultFor('elicitation/create', elicitation, { kind: 'elicitation', action: 'accept', content: { name: 'Ada', age: 36 } })).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    });
    expect(resultFor('elicitation/create', elicitation, { kind: 'elicitation', action: 'decline', content: { name: 'x' } })).toEqual({ action: 'decline' });
    expect(
      resultFor('elicitation/create', { mode: 'url', url: 'https://x.example', elicitationId: 'e1', message: 'go' }, { kind: 'elicitation', action: 'accept' }),
    ).toEqual({
      action: 'accept',
    });
  });

  it('a bad answer is the caller’s error (invalid_input); a rejection is the server’s (JSON-RPC -1)', () => {
    const bad = () => resultFor('elicitation/create', elicitation, { kind: 'elicitation', action: 'accept', content: { name: 'Ada' } });
    expect(bad).toThrow(ApiError);
    expect(bad).toThrow(/requested schema: age:/);
    expect(() => resultFor('elicitation/create', elicitation, { kind: 'sampling', model: 'm', role: 'assistant', text: '' })).toThrow(ApiError);
    try {
      resultFor('sampling/createMessage', {}, { kind: 'reject', message: 'no' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ProtocolError);
      expect((err as ProtocolError).code).toBe(-1);
    }
  });
});
