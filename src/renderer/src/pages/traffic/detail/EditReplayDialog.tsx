// Edit & replay: the recorded request params in the JSON editor; the edited request is replayed through
// the gateway's current chain (to the backend, or the chain only) and recorded as a replay of the original.
import { useEffect, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { JsonEditor, parseJsonText } from '../../../components/json-editor/JsonEditor';
import type { ReplayMode } from '../../../../../shared/api/models-traffic';
import type { ExecutionDetailData } from './sections';
import { ReplayModeChoice } from '../ReplayModeChoice';

export function EditReplayDialog(props: {
  execution: ExecutionDetailData | undefined;
  busy: boolean;
  onReplay(id: string, mode: ReplayMode, params: unknown): void;
  onClose(): void;
}) {
  const e = props.execution;
  const [text, setText] = useState(() => (e ? JSON.stringify(e.requestReceived ?? {}, null, 2) : ''));
  const [mode, setMode] = useState<ReplayMode>('backend');
  useEffect(() => {
    if (e) setText(JSON.stringify(e.requestReceived ?? {}, null, 2));
  }, [e]);
  const parsed = parseJsonText(text);
  return (
    <Dialog
      title={e ? `Edit & replay ${e.event}${e.target ? ` ${e.target}` : ''}` : 'Edit & replay'}
      open={Boolean(e)}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            disabled={!parsed.ok || props.busy || !e}
            onClick={() => parsed.ok && e && props.onReplay(e.id, mode, parsed.value)}
          >
            {props.busy ? 'Replaying…' : 'Replay edited request'}
          </button>
        </>
      }
    >
      <p className="muted">
        The request params as the client sent them. Edit them, then replay through the gateway&apos;s current chain; the result is recorded as a replay of this
        execution.
      </p>
      <JsonEditor value={text} onChange={setText} label="Request params" height="320px" />
      {!parsed.ok && (
        <div className="banner error" role="alert">
          {parsed.error}
        </div>
      )}
      <ReplayModeChoice mode={mode} onChange={setMode} label="Replay mode" />
    </Dialog>
  );
}
