// What a filter bar (Traffic, Messages) does with its filter: set or clear one field, and the free-text
// search typed into a box that asks the store only once typing settles for a moment (Enter asks at once).
// The bar only edits the filter; the store runs it.
import { useEffect, useState } from 'react';

const SEARCH_SETTLE_MS = 300;

export interface FilterEditor<F> {
  /** The search box's text (asked for once it settles, or on `commitSearch`). */
  text: string;
  setText(text: string): void;
  commitSearch(): void;
  /** Sets a field; '' or undefined removes it. */
  set<K extends keyof F>(key: K, value: F[K] | ''): void;
  /** How many fields hold a value (the "Clear all" button shows from one). */
  active: number;
}

export function useFilterEditor<F extends { search?: string }>(filter: F, onChange: (filter: F) => void): FilterEditor<F> {
  const [text, setText] = useState(filter.search ?? '');
  useEffect(() => setText(filter.search ?? ''), [filter.search]);

  function set<K extends keyof F>(key: K, value: F[K] | '') {
    const next = { ...filter };
    if (value === '' || value === undefined) delete next[key];
    else next[key] = value as F[K];
    onChange(next);
  }
  const commitSearch = () => set('search', text.trim() as F['search']);

  useEffect(() => {
    if ((filter.search ?? '') === text.trim()) return;
    const t = setTimeout(commitSearch, SEARCH_SETTLE_MS);
    return () => clearTimeout(t);
  });

  return { text, setText, commitSearch, set, active: Object.values(filter).filter(Boolean).length };
}
