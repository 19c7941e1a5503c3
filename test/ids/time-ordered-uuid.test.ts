// Time-ordered UUIDs: RFC 9562 version 7 layout (time, version 7, RFC variant), unique, and sorting by
// the millisecond they were made in, which is what lets the store's uuid indexes append at their end.
import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '../../src/main/ids/time-ordered-uuid';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version-7 UUID whose first 48 bits are the epoch milliseconds', () => {
    const at = Date.UTC(2026, 11, 3, 15, 0, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(V7);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it('sorts by time as text, and never repeats', () => {
    const times = [0, 1, 255, 256, 1_700_000_000_000, 1_700_000_000_001, 2 ** 47, 2 ** 48 - 1];
    const ids = times.map((t) => timeOrderedUuid(t));
    expect([...ids].sort()).toEqual(ids);
    const many = new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid()));
    expect(many.size).toBe(10_000);
    for (const id of many) expect(id).toMatch(V7);
  });
});
