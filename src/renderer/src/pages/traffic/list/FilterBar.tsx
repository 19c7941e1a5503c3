// The filter bar: structured chips (gateway, method, target, outcome, interceptor, blocked by, time range)
// and a free-text search over payloads. It only edits the filter; the store runs it.
import { forwardRef, memo, useEffect, useState } from 'react';
import type { HistoryFilter } from '../../../../../shared/api/models';
import type { Facets } from '../../../../../shared/api/models-traffic';
import { SuggestInput } from './SuggestInput';

const RANGES: { label: string; ms?: number }[] = [
  { label: 'Any time' },
  { label: 'Last 15 minutes', ms: 15 * 60_000 },
  { label: 'Last hour', ms: 3_600_000 },
  { label: 'Last 24 hours', ms: 86_400_000 },
  { label: 'Last 7 days', ms: 7 * 86_400_000 },
];

export interface FilterBarProps {
  filter: HistoryFilter;
  facets?: Facets;
  onChange(filter: HistoryFilter): void;
}

const FilterBarView = forwardRef<HTMLInputElement, FilterBarProps>(function FilterBar({ filter, facets, onChange }, searchRef) {
  const [text, setText] = useState(filter.search ?? '');
  const [range, setRange] = useState(0);
  useEffect(() => setText(filter.search ?? ''), [filter.search]);

  // Typing settles for a moment before the store is asked; Enter asks at once.
  useEffect(() => {
    if ((filter.search ?? '') === text.trim()) return;
    const t = setTimeout(() => set('search', text.trim()), 300);
    return () => clearTimeout(t);
  });

  function set<K extends keyof HistoryFilter>(key: K, value: HistoryFilter[K] | '') {
    const next = { ...filter };
    if (value === '' || value === undefined) delete next[key];
    else next[key] = value as HistoryFilter[K];
    onChange(next);
  }

  function setRangeIndex(i: number) {
    setRange(i);
    const ms = RANGES[i]?.ms;
    const next = { ...filter };
    delete next.until;
    if (ms) next.since = new Date(Date.now() - ms).toISOString();
    else delete next.since;
    onChange(next);
  }

  const active = Object.keys(filter).filter((k) => filter[k as keyof HistoryFilter]).length;

  return (
    <div className="filter-bar" role="search" aria-label="Filter executions">
      <input
        ref={searchRef}
        type="search"
        className="filter-search"
        aria-label="Search payloads"
        placeholder="Search payloads…  ( / )"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') set('search', text.trim());
          if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
        }}
      />
      <Chip label="Gateway" value={filter.gateway} onClear={() => set('gateway', '')}>
        <select aria-label="Gateway" value={filter.gateway ?? ''} onChange={(e) => set('gateway', e.target.value)}>
          <option value="">any</option>
          {options(facets?.gateways, filter.gateway)}
        </select>
      </Chip>
      <Chip label="Method" value={filter.event} onClear={() => set('event', '')}>
        <select aria-label="Method" value={filter.event ?? ''} onChange={(e) => set('event', e.target.value)}>
          <option value="">any</option>
          {options(facets?.events, filter.event)}
        </select>
      </Chip>
      <Chip label="Target" value={filter.target} onClear={() => set('target', '')}>
        <SuggestInput label="Target" value={filter.target} list={facets?.targets} onCommit={(v) => set('target', v)} />
      </Chip>
      <Chip label="Outcome" value={filter.outcome} onClear={() => set('outcome', '')}>
        <select aria-label="Outcome" value={filter.outcome ?? ''} onChange={(e) => set('outcome', e.target.value as HistoryFilter['outcome'])}>
          <option value="">any</option>
          <option value="allow">allowed</option>
          <option value="blocked">blocked</option>
          <option value="mutated">mutated</option>
          <option value="error">error</option>
        </select>
      </Chip>
      <Chip label="Interceptor" value={filter.interceptor} onClear={() => set('interceptor', '')}>
        <SuggestInput label="Interceptor" value={filter.interceptor} list={facets?.interceptors} onCommit={(v) => set('interceptor', v)} />
      </Chip>
      <Chip label="Blocked by" value={filter.blockedBy} onClear={() => set('blockedBy', '')}>
        <SuggestInput label="Blocked by" value={filter.blockedBy} list={facets?.interceptors} onCommit={(v) => set('blockedBy', v)} />
      </Chip>
      <Chip label="Time" value={filter.since ? RANGES[range]?.label : undefined} onClear={() => setRangeIndex(0)}>
        <select aria-label="Time range" value={filter.since ? range : 0} onChange={(e) => setRangeIndex(Number(e.target.value))}>
          {RANGES.map((r, i) => (
            <option key={r.label} value={i}>
              {r.label}
            </option>
          ))}
        </select>
      </Chip>
      {active > 0 && (
        <button type="button" className="ghost small" onClick={() => onChange({})}>
          Clear all
        </button>
      )}
    </div>
  );
});

/** Memoized: pages loading below do not re-render the chips and their suggestion lists. */
export const FilterBar = memo(FilterBarView);

function Chip({ label, value, onClear, children }: { label: string; value: string | undefined; onClear(): void; children: React.ReactNode }) {
  return (
    <span className={`chip${value ? ' active' : ''}`}>
      <span className="chip-label">{label}</span>
      {children}
      {value && (
        <button type="button" className="chip-clear" aria-label={`Clear ${label.toLowerCase()} filter`} onClick={onClear}>
          ×
        </button>
      )}
    </span>
  );
}

function options(values: string[] | undefined, current: string | undefined) {
  const all = [...(values ?? [])];
  if (current && !all.includes(current)) all.push(current);
  return all.map((v) => (
    <option key={v} value={v}>
      {v}
    </option>
  ));
}
