// The filter bar: structured chips (gateway, host, method, target, outcome, interceptor, blocked by, time range)
// and a free-text search over payloads. It only edits the filter; the store runs it.
import { forwardRef, memo, useState } from 'react';
import type { HistoryFilter } from '../../../../../shared/api/models';
import type { Facets } from '../../../../../shared/api/models-traffic';
import { FilterChip } from '../../../components/filter-bar/FilterChip';
import { SuggestInput } from '../../../components/filter-bar/SuggestInput';
import { useFilterEditor } from '../../../components/filter-bar/use-filter-editor';

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
  const { text, setText, commitSearch, set, active } = useFilterEditor(filter, onChange);
  const [range, setRange] = useState(0);

  function setRangeIndex(i: number) {
    setRange(i);
    const ms = RANGES[i]?.ms;
    const next = { ...filter };
    delete next.until;
    if (ms) next.since = new Date(Date.now() - ms).toISOString();
    else delete next.since;
    onChange(next);
  }

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
          if (e.key === 'Enter') commitSearch();
          if (e.key === 'Escape') (e.target as HTMLInputElement).blur();
        }}
      />
      <FilterChip label="Gateway" value={filter.gateway} onClear={() => set('gateway', '')}>
        <select aria-label="Gateway" value={filter.gateway ?? ''} onChange={(e) => set('gateway', e.target.value)}>
          <option value="">any</option>
          {options(facets?.gateways, filter.gateway)}
        </select>
      </FilterChip>
      {/* Only a shared history records hosts; on one machine's SQLite file the chip would match nothing. */}
      {((facets?.hosts.length ?? 0) > 0 || filter.host) && (
        <FilterChip label="Host" value={filter.host} onClear={() => set('host', '')}>
          <select aria-label="Host" value={filter.host ?? ''} onChange={(e) => set('host', e.target.value)}>
            <option value="">any</option>
            {options(facets?.hosts, filter.host)}
          </select>
        </FilterChip>
      )}
      <FilterChip label="Method" value={filter.event} onClear={() => set('event', '')}>
        <select aria-label="Method" value={filter.event ?? ''} onChange={(e) => set('event', e.target.value)}>
          <option value="">any</option>
          {options(facets?.events, filter.event)}
        </select>
      </FilterChip>
      <FilterChip label="Target" value={filter.target} onClear={() => set('target', '')}>
        <SuggestInput label="Target" value={filter.target} list={facets?.targets} onCommit={(v) => set('target', v)} />
      </FilterChip>
      <FilterChip label="Outcome" value={filter.outcome} onClear={() => set('outcome', '')}>
        <select aria-label="Outcome" value={filter.outcome ?? ''} onChange={(e) => set('outcome', e.target.value as HistoryFilter['outcome'])}>
          <option value="">any</option>
          <option value="allow">allowed</option>
          <option value="blocked">blocked</option>
          <option value="mutated">mutated</option>
          <option value="error">error</option>
        </select>
      </FilterChip>
      <FilterChip label="Interceptor" value={filter.interceptor} onClear={() => set('interceptor', '')}>
        <SuggestInput label="Interceptor" value={filter.interceptor} list={facets?.interceptors} onCommit={(v) => set('interceptor', v)} />
      </FilterChip>
      <FilterChip label="Blocked by" value={filter.blockedBy} onClear={() => set('blockedBy', '')}>
        <SuggestInput label="Blocked by" value={filter.blockedBy} list={facets?.interceptors} onCommit={(v) => set('blockedBy', v)} />
      </FilterChip>
      <FilterChip label="Time" value={filter.since ? RANGES[range]?.label : undefined} onClear={() => setRangeIndex(0)}>
        <select aria-label="Time range" value={filter.since ? range : 0} onChange={(e) => setRangeIndex(Number(e.target.value))}>
          {RANGES.map((r, i) => (
            <option key={r.label} value={i}>
              {r.label}
            </option>
          ))}
        </select>
      </FilterChip>
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

function options(values: string[] | undefined, current: string | undefined) {
  const all = [...(values ?? [])];
  if (current && !all.includes(current)) all.push(current);
  return all.map((v) => (
    <option key={v} value={v}>
      {v}
    </option>
  ));
}
