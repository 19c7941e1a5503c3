// The head of the payload editor in the Invoke and Dry-run tabs: where the payload came from (Invoke
// says it), and the two ways to replace it: the event's template, or a recorded execution picked in
// the history dialog this head opens.
import { useState, type ReactNode } from 'react';
import { HistoryPicker } from './invoke/HistoryPicker';
import type { Phase } from './TargetPickers';

export function PayloadHead(props: {
  gatewayId: string;
  event: string;
  phase: Phase;
  source?: ReactNode;
  onReset(): void;
  onPick(payload: unknown, executionId: string): void;
}) {
  const [picking, setPicking] = useState(false);
  return (
    <>
      <div className="editor-head">
        <h3>Payload</h3>
        {props.source}
        <span className="spacer" />
        <button type="button" className="small" onClick={props.onReset}>
          Reset to template
        </button>
        <button type="button" className="small" onClick={() => setPicking(true)}>
          From history…
        </button>
      </div>
      <HistoryPicker
        open={picking}
        gatewayId={props.gatewayId}
        event={props.event}
        phase={props.phase}
        onClose={() => setPicking(false)}
        onPick={(payload, executionId) => {
          props.onPick(payload, executionId);
          setPicking(false);
        }}
      />
    </>
  );
}
