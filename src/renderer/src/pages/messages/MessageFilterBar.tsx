// The Messages filter bar: side, direction, kind, method (with the methods recorded for this gateway as
// suggestions; `-ping` leaves a method out, see method-filter.ts), a text search in the message, and
// "Show health pings" (the gateway's own pings to its servers, hidden by default). It only edits the
// filter; the store runs it.
import { memo } from 'react';
import type { MessageFilter } from '../../../../shared/api/models-messages';
import { FilterChip } from '../../components/filter-bar/FilterChip';
import { SuggestInput } from '../../components/filter-bar/SuggestInput';
import { useFilterEditor } from '../../components/filter-bar/use-filter-editor';

type Editable = Pick<MessageFilter, 'side' | 'direction' | 'kind' | 'method' | 'search' | 'healthPings'>;

export const MessageFilterBar = memo(function MessageFilterBar({
  filter,
  methods,
  onChange,
}: {
  filter: Editable;
  methods?: string[];
  onChange(filter: Editable): void;
}) {
  const { text, setText, commitSearch, set, active } = useFilterEditor(filter, onChange);

  return (
    <div className="filter-bar" role="search" aria-label="Filter messages">
      <input
        type="search"
        className="filter-search"
        aria-label="Search messages"
        placeholder="Search in messages…"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && commitSearch()}
      />
      <FilterChip label="Side" value={filter.side} onClear={() => set('side', '')}>
        <select aria-label="Side" value={filter.side ?? ''} onChange={(e) => set('side', e.target.value as Editable['side'])}>
          <option value="">any</option>
          <option value="client">client</option>
          <option value="backend">backend</option>
          <option value="interceptor">interceptor servers</option>
        </select>
      </FilterChip>
      <FilterChip label="Direction" value={filter.direction} onClear={() => set('direction', '')}>
        <select aria-label="Direction" value={filter.direction ?? ''} onChange={(e) => set('direction', e.target.value as Editable['direction'])}>
          <option value="">any</option>
          <option value="in">to the gateway</option>
          <option value="out">from the gateway</option>
        </select>
      </FilterChip>
      <FilterChip label="Kind" value={filter.kind} onClear={() => set('kind', '')}>
        <select aria-label="Kind" value={filter.kind ?? ''} onChange={(e) => set('kind', e.target.value as Editable['kind'])}>
          <option value="">any</option>
          <option value="request">request</option>
          <option value="response">response</option>
          <option value="error">error</option>
          <option value="notification">notification</option>
          <option value="connect-error">connect failed</option>
        </select>
      </FilterChip>
      <FilterChip label="Method" value={filter.method} onClear={() => set('method', '')}>
        <SuggestInput label="Method" value={filter.method} list={methods} placeholder="any, or -ping" onCommit={(v) => set('method', v)} />
      </FilterChip>
      <label className="inline health-pings" title="The gateway's own ping to its interceptor servers every 15 s, and their answers">
        <input type="checkbox" checked={filter.healthPings === true} onChange={(e) => set('healthPings', e.target.checked || '')} /> Show health pings
      </label>
      {active > 0 && (
        <button type="button" className="ghost small" onClick={() => onChange({})}>
          Clear all
        </button>
      )}
    </div>
  );
});
