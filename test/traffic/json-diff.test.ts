// The structural JSON diff behind mutator diffs and Compare.
import { describe, expect, it } from 'vitest';
import { diffJson, diffText, formatPath } from '../../src/renderer/src/components/diff/json-diff';

describe('diffJson', () => {
  it('finds nothing between equal values, whatever the key order', () => {
    expect(diffJson({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toEqual([]);
  });

  it('reports a changed string with a word-level diff', () => {
    const changes = diffJson(
      { name: 'echo', arguments: { message: 'mail bob@example.com now' } },
      { name: 'echo', arguments: { message: 'mail [EMAIL_REDACTED] now' } },
    );
    expect(changes).toHaveLength(1);
    const c = changes[0]!;
    expect(c.kind).toBe('changed');
    expect(formatPath(c.path)).toBe('$.arguments.message');
    if (c.kind !== 'changed') throw new Error('unreachable');
    const removed = c
      .text!.filter((p) => p.kind === 'removed')
      .map((p) => p.text)
      .join('');
    const added = c
      .text!.filter((p) => p.kind === 'added')
      .map((p) => p.text)
      .join('');
    expect(removed).toBe('bob@example.com');
    expect(added).toBe('[EMAIL_REDACTED]');
    expect(
      c
        .text!.filter((p) => p.kind === 'same')
        .map((p) => p.text)
        .join(''),
    ).toBe('mail  now');
  });

  it('reports added and removed keys', () => {
    expect(diffJson({ a: 1, gone: true }, { a: 1, fresh: 'x' })).toEqual([
      { kind: 'removed', path: ['gone'], before: true },
      { kind: 'added', path: ['fresh'], after: 'x' },
    ]);
  });

  it('aligns arrays: one inserted element is one addition', () => {
    const before = [{ id: 1 }, { id: 2 }, { id: 3 }];
    const after = [{ id: 1 }, { id: 9 }, { id: 2 }, { id: 3 }];
    expect(diffJson(before, after)).toEqual([{ kind: 'added', path: [1], after: { id: 9 } }]);
  });

  it('compares an element changed in place structurally', () => {
    const changes = diffJson({ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] });
    expect(changes.map((c) => formatPath(c.path))).toEqual(['$.content[0].text']);
  });

  it('reports a type change as a change of the whole value', () => {
    expect(diffJson({ a: [1] }, { a: { 0: 1 } })).toEqual([{ kind: 'changed', path: ['a'], before: [1], after: { 0: 1 } }]);
  });

  it('formats awkward keys', () => {
    expect(formatPath(['a b', 0, '_ok'])).toBe('$["a b"][0]._ok');
  });

  it('diffs text word by word', () => {
    expect(diffText('a b c', 'a x c')).toEqual([
      { kind: 'same', text: 'a ' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: ' c' },
    ]);
  });
});

describe('diffText keeps a changed stretch whole', () => {
  it('reads as the words removed, then the words added: never interleaved around shared spaces', () => {
    const parts = diffText('Echo: hello, my ssn is 078-05-1120 thanks', 'Echo: hello, just a normal day thanks');
    expect(parts).toEqual([
      { kind: 'same', text: 'Echo: hello, ' },
      { kind: 'removed', text: 'my ssn is 078-05-1120' },
      { kind: 'added', text: 'just a normal day' },
      { kind: 'same', text: ' thanks' },
    ]);
    // What a reader sees (del then ins, in order) is the old words whole, then the new words whole.
    expect(parts!.map((p) => p.text).join('')).toBe('Echo: hello, my ssn is 078-05-1120just a normal day thanks');
  });

  it('still marks one word changed among kept words on its own', () => {
    expect(diffText('send the report to bob today', 'send the summary to bob today')).toEqual([
      { kind: 'same', text: 'send the ' },
      { kind: 'removed', text: 'report' },
      { kind: 'added', text: 'summary' },
      { kind: 'same', text: ' to bob today' },
    ]);
  });
});

describe('diffText on rewritten text', () => {
  it('gives up on interleaving when almost nothing is kept', () => {
    expect(diffText('Blocked by samples/pii-validator (request): Payload may contain SSN data', 'Echo: my id is on file')).toBeUndefined();
  });
});
