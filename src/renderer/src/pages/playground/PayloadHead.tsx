// The head of the payload editor in the Invoke and Dry-run tabs: where the payload came from (Invoke
// says it), and the two ways to replace it: the event's template, or a recorded execution.
import type { ReactNode } from 'react';

export function PayloadHead(props: { source?: ReactNode; onReset(): void; onPickHistory(): void }) {
  return (
    <div className="editor-head">
      <h3>Payload</h3>
      {props.source}
      <span className="spacer" />
      <button type="button" className="small" onClick={props.onReset}>
        Reset to template
      </button>
      <button type="button" className="small" onClick={props.onPickHistory}>
        From history…
      </button>
    </div>
  );
}
