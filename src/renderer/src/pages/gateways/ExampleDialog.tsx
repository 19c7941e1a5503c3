// Create a gateway from one of the shipped example configs, editable before creating.
import { useEffect, useState } from 'react';
import { useApiMutation, useApiQuery } from '../../api/context';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';

export function ExampleDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const examples = useApiQuery('gateways.examples', undefined, [], { enabled: open });
  const create = useApiMutation('gateways.create', ['gateways']);
  const [file, setFile] = useState<string>();
  const [text, setText] = useState('');
  const [id, setId] = useState('');
  const [start, setStart] = useState(true);
  const [parseError, setParseError] = useState<string>();

  const list = examples.data ?? [];
  useEffect(() => {
    if (!file && list[0]) choose(list[0].file);
  }, [list.length]);

  function choose(f: string) {
    const ex = list.find((e) => e.file === f);
    setFile(f);
    setText(JSON.stringify(ex?.config ?? {}, null, 2));
  }

  function submit() {
    setParseError(undefined);
    let config: Record<string, unknown>;
    try {
      config = JSON.parse(text) as Record<string, unknown>;
    } catch (err) {
      setParseError(`The config is not valid JSON: ${(err as Error).message}`);
      return;
    }
    create.mutate({ config, start, ...(id.trim() ? { id: id.trim() } : {}), localize: true }, { onSuccess: () => close() });
  }

  function close() {
    create.reset();
    setParseError(undefined);
    onClose();
  }

  return (
    <Dialog
      title="New gateway from an example"
      open={open}
      onClose={close}
      footer={
        <>
          <button onClick={close}>Cancel</button>
          <button className="primary" onClick={submit} disabled={create.isPending || !text}>
            {create.isPending ? 'Creating…' : 'Create gateway'}
          </button>
        </>
      }
    >
      <ErrorBanner error={examples.error} />
      <div className="list" role="radiogroup" aria-label="Example">
        {list.map((ex) => (
          <label key={ex.file} className="option">
            <input type="radio" name="example" checked={file === ex.file} onChange={() => choose(ex.file)} />
            <span>
              <strong>{ex.name}</strong>
              <div className="muted">{ex.description}</div>
            </span>
          </label>
        ))}
      </div>
      <label className="field">
        Config
        <span className="hint">
          Edit freely. Commands naming <code>interceptor-console</code> or server-everything run from this installation.
        </span>
        <textarea rows={12} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </label>
      <div className="row">
        <label className="field">
          Id (optional)
          <input type="text" value={id} onChange={(e) => setId(e.target.value)} placeholder="derived from the name" />
        </label>
        <label className="check">
          <input type="checkbox" checked={start} onChange={(e) => setStart(e.target.checked)} />
          Start it now
        </label>
      </div>
      <ErrorBanner error={parseError ?? create.error} />
    </Dialog>
  );
}
