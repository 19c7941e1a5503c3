// "Save as test case" ([chain-tests]): recorded executions become chain test cases of a gateway, files in
// its `<gateway>.tests/` folder: the request, the backend's answer, and what the chain did as the expectation.
import { useEffect, useState } from 'react';
import { useApiMutation, useApiQuery } from '../../api/context';
import { Dialog } from '../../components/Dialog';
import { ErrorBanner } from '../../components/ErrorBanner';
import { GatewaySelect } from '../../components/GatewaySelect';

export function SaveTestCaseDialog(props: { ids: string[]; gatewayName?: string; onClose(): void; onSaved(message: string): void }) {
  const gateways = useApiQuery('gateways.list', undefined, ['gateways']);
  const save = useApiMutation('tests.save');
  const [gateway, setGateway] = useState('');
  const [name, setName] = useState('');
  const list = gateways.data ?? [];
  // The gateway that recorded the call is the likely home of its test.
  useEffect(() => {
    if (gateway || list.length === 0) return;
    setGateway((list.find((g) => g.name === props.gatewayName) ?? list[0]!).id);
  }, [gateway, list, props.gatewayName]);
  const one = props.ids.length === 1;
  const submit = () =>
    save.mutate(
      { id: gateway, executionIds: props.ids, ...(one && name.trim() ? { name: name.trim() } : {}) },
      {
        onSuccess: (r) => {
          const problems = r.errors.map((e) => `${e.executionId.slice(0, 8)}: ${e.error}`).join('; ');
          props.onSaved(`Saved ${r.saved.length} test case${r.saved.length === 1 ? '' : 's'} to ${r.dir}${problems ? ` (not saved: ${problems})` : ''}.`);
        },
      },
    );
  return (
    <Dialog
      title={one ? 'Save as test case' : `Save ${props.ids.length} executions as test cases`}
      open
      onClose={props.onClose}
      footer={
        <>
          <button type="button" className="ghost" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" className="primary" disabled={!gateway || save.isPending} onClick={submit}>
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
        </>
      }
    >
      <p className="muted">
        Each case keeps the recorded request, the backend&apos;s answer and what the chain did (allowed, blocked or mutated, by which interceptor, and the
        payloads). Run them on the Tests screen or with <code>interceptor-console test</code>.
      </p>
      <label>
        Gateway whose chain the case tests
        <GatewaySelect gateways={list} value={gateway} onChange={setGateway} />
      </label>
      {one && (
        <label>
          Case name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="default: method, target and outcome" aria-label="Case name" />
        </label>
      )}
      <ErrorBanner error={gateways.error ?? save.error} />
    </Dialog>
  );
}
