// How a live list takes in a fresh first page. A new row can sort below the current top row (a call that
// started earlier but was recorded later, or a second process writing the same history), so the whole first
// page is merged, not only what sorts above the top row: that row would stay missing until a reload.

export type FirstPageMerge<Row> = 'unchanged' | 'start-over' | { items: Row[]; added: number };

/**
 * `unchanged`: nothing new on the first page. `start-over`: the list was empty, or every row of the page is
 * new (more arrived than one page holds), so the list restarts from this page and its cursor. Otherwise the
 * page's rows, in the store's order, followed by the rows shown that are not on it; `added` of them are new.
 */
export function mergeFirstPage<Row extends { id: string }>(shown: readonly Row[], fresh: readonly Row[]): FirstPageMerge<Row> {
  if (shown.length === 0) return 'start-over';
  const shownIds = new Set(shown.map((r) => r.id));
  const added = fresh.filter((r) => !shownIds.has(r.id)).length;
  if (added === 0) return 'unchanged';
  if (added === fresh.length) return 'start-over';
  const onPage = new Set(fresh.map((r) => r.id));
  return { items: [...fresh, ...shown.filter((r) => !onPage.has(r.id))], added };
}
