// [desktop-client] item 5: a canvas drag reorders a lane's mutations by writing priorities (lower runs first).
import { describe, expect, it } from 'vitest';
import { reorderMutations } from '../../src/renderer/src/pages/chain/doc/overrides';

describe('reorderMutations', () => {
  it('gives the dragged order 10, 20, 30 in its phase and leaves the other phase where it was', () => {
    const raw = { backend: {}, overrides: { 'a/x': { priorityHint: 5, mode: 'audit' }, 'a/y': { priorityHint: { request: 1, response: 7 } } } };
    const out = reorderMutations(raw, 'request', ['a/z', 'a/y', 'a/x'], (id) => (id === 'a/z' ? 3 : undefined));
    expect(out.overrides).toEqual({
      'a/x': { priorityHint: { request: 30, response: 5 }, mode: 'audit' },
      'a/y': { priorityHint: { request: 20, response: 7 } },
      'a/z': { priorityHint: { request: 10, response: 3 } },
    });
    expect(raw.overrides['a/x']).toEqual({ priorityHint: 5, mode: 'audit' }); // the draft is not mutated
  });

  it('in the response lane sets the response priorities', () => {
    const out = reorderMutations({}, 'response', ['s/b', 's/a'], () => undefined);
    expect(out.overrides).toEqual({ 's/b': { priorityHint: { response: 10 } }, 's/a': { priorityHint: { response: 20 } } });
  });
});
