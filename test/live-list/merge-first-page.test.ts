// How a live list (Traffic, Messages) takes in a fresh first page: a row that sorts below the current top
// (recorded later than rows newer than it) is merged too; rows are never duplicated; nothing new changes
// nothing; an empty list or a page of only new rows starts over. The browser test of the same rule on real
// data is test/e2e/live-lists.test.ts.
import { describe, expect, it } from 'vitest';
import { mergeFirstPage } from '../../src/renderer/src/live-list/merge-first-page';

const rows = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (merged: ReturnType<typeof mergeFirstPage<{ id: string }>>) =>
  typeof merged === 'string' ? merged : { ids: merged.items.map((r) => r.id), added: merged.added };

describe('mergeFirstPage', () => {
  it('merges a new row that sorts below the current top row, in the store order', () => {
    // Shown: 5 4 2 1. The store now has 6 on top and 3 (recorded late) between 4 and 2.
    expect(ids(mergeFirstPage(rows('5', '4', '2', '1'), rows('6', '5', '4', '3', '2', '1')))).toEqual({ ids: ['6', '5', '4', '3', '2', '1'], added: 2 });
  });

  it('keeps the rows shown below the first page (older pages loaded by scrolling), once each', () => {
    expect(ids(mergeFirstPage(rows('4', '3', '2', '1'), rows('5', '4', '3')))).toEqual({ ids: ['5', '4', '3', '2', '1'], added: 1 });
  });

  it('changes nothing when the first page holds no new row', () => {
    expect(mergeFirstPage(rows('3', '2', '1'), rows('3', '2', '1'))).toBe('unchanged');
    expect(mergeFirstPage(rows('3', '2', '1'), [])).toBe('unchanged');
  });

  it('starts over from the page when the list is empty or every row of the page is new', () => {
    expect(mergeFirstPage([], rows('2', '1'))).toBe('start-over');
    expect(mergeFirstPage([], [])).toBe('start-over');
    expect(mergeFirstPage(rows('2', '1'), rows('9', '8', '7'))).toBe('start-over');
  });
});
