// One structured filter of a filter bar (Traffic, Messages): its label, its control, and a clear button
// while it holds a value.
import type { ReactNode } from 'react';

export function FilterChip({ label, value, onClear, children }: { label: string; value: string | undefined; onClear(): void; children: ReactNode }) {
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
