import { describe, expect, it } from 'vitest';
import { diffJson, parseJsonPath } from '../../src/main/chain-tests';

describe('chain test JSON diff', () => {
  it('reads the JSON paths cases use, and refuses others with where it stopped', () => {
    expect(parseJsonPath('$')).toEqual([]);
    expect(parseJsonPath("$.content[0].text['odd key'][*].*")).toEqual(['content', 0, 'text', 'odd key', '*', '*']);
    expect(() => parseJsonPath('content.text')).toThrow('must start with "$"');
    expect(() => parseJsonPath('$.a..b')).toThrow('at character 4');
  });

  it('names each difference by path, with both values', () => {
    const d = diffJson({ a: 1, b: [1, 2], c: { d: 'x' } }, { a: 2, b: [1], c: { d: 'x', e: null } });
    expect(d).toEqual([
      { path: '$.a', expected: 1, actual: 2, kind: 'changed' },
      { path: '$.b[1]', expected: 2, kind: 'missing' },
      { path: '$.c.e', actual: null, kind: 'unexpected' },
    ]);
    expect(diffJson({ 'odd key': 1 }, { 'odd key': 2 })[0]!.path).toBe('$["odd key"]');
  });

  it('leaves out what an ignore path covers, wildcards included', () => {
    const expected = {
      content: [
        { id: 1, text: 'a' },
        { id: 2, text: 'b' },
      ],
      at: 'then',
    };
    const actual = {
      content: [
        { id: 7, text: 'a' },
        { id: 8, text: 'b' },
      ],
      at: 'now',
    };
    expect(diffJson(expected, actual, ['$.content[*].id', '$.at'])).toEqual([]);
    expect(diffJson(expected, actual, ['$.content[0].id']).map((d) => d.path)).toEqual(['$.content[1].id', '$.at']);
    expect(diffJson({ a: { b: 1 } }, { a: { b: 2, c: 3 } }, ['$.a'])).toEqual([]);
  });
});
