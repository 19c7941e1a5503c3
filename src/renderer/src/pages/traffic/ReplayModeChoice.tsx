// The choice both replay dialogs (Edit & replay, Bulk replay) offer: through the chain to the backend,
// or the chain only.
import { useId } from 'react';
import type { ReplayMode } from '../../../../shared/api/models-traffic';

export function ReplayModeChoice(props: {
  mode: ReplayMode;
  onChange(mode: ReplayMode): void;
  label: string;
  /** The bulk dialog says "Chain only": its text above already says what a chain-only replay skips. */
  chainOnlyText?: string;
}) {
  // One radio group per dialog, so two dialogs never share a group.
  const name = useId();
  return (
    <div className="row" role="radiogroup" aria-label={props.label}>
      <label className="check">
        <input type="radio" name={name} checked={props.mode === 'backend'} onChange={() => props.onChange('backend')} /> Through the chain to the backend
      </label>
      <label className="check">
        <input type="radio" name={name} checked={props.mode === 'chain-only'} onChange={() => props.onChange('chain-only')} />{' '}
        {props.chainOnlyText ?? 'Chain only (no backend)'}
      </label>
    </div>
  );
}
