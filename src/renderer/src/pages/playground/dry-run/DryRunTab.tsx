// Dry-run chain: the gateway's whole chain on a payload, with no backend. The engine runs it on the
// app's own interceptor connections and the trace is drawn by the shared TraceView (the same one
// Traffic uses): every step in pass order, parallel validations, shadow mutations and skip reasons.
import { useEffect, useState } from 'react';
import type { GatewayInfo } from '../../../../../shared/api/models';
import type { ChainTrace } from '../../../../../shared/trace/types';
import { KNOWN_EVENTS } from '../../../../../shared/protocol/constants';
import { payloadTemplate } from '../../../../../shared/templates/payloads';
import { useApi } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { JsonEditor, parseJsonText } from '../../../components/json-editor/JsonEditor';
import { JsonDiff } from '../../../components/diff/JsonDiff';
import { TraceView } from '../../../components/trace/TraceView';
import { PayloadCheck } from '../invoke/PayloadShapeNote';
import type { PayloadSeed } from '../execution-link';
import { EventPhasePicker, type Phase } from '../TargetPickers';
import { PayloadHead } from '../PayloadHead';

export function DryRunTab({ gateway, seed }: { gateway: GatewayInfo; seed?: PayloadSeed }) {
  const api = useApi();
  const [event, setEvent] = useState('tools/call');
  const [phase, setPhase] = useState<Phase>('request');
  const [text, setText] = useState(() => JSON.stringify(payloadTemplate('tools/call', 'request').payload, null, 2));
  const [principal, setPrincipal] = useState('');
  const [trace, setTrace] = useState<ChainTrace>();
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  const parsed = parseJsonText(text);

  useEffect(() => {
    if (!seed) return;
    setEvent(seed.event);
    setPhase(seed.phase);
    setText(JSON.stringify(seed.payload, null, 2));
    setTrace(undefined);
  }, [seed?.nonce]);

  const load = (e: string, p: Phase) => {
    setEvent(e);
    setPhase(p);
    setText(JSON.stringify(payloadTemplate(e, p).payload, null, 2));
  };

  const run = async () => {
    if (!parsed.ok) return;
    setPending(true);
    setError(undefined);
    try {
      const out = await api.call('chain.dryRun', {
        id: gateway.id,
        event,
        phase,
        payload: parsed.value,
        ...(principal.trim() ? { context: { principal: { type: 'user' as const, id: principal.trim() } } } : {}),
      });
      setTrace(out);
    } catch (err) {
      setError(err);
      setTrace(undefined);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="pg-grid dry-run">
      <section className="card pg-card" aria-label="Dry-run input">
        <div className="row">
          <EventPhasePicker
            events={[...new Set([event, ...KNOWN_EVENTS])]}
            event={event}
            phase={phase}
            onChange={load}
            eventLabel="Dry-run event"
            phaseLabel="Dry-run phase"
          />
          <label className="field grow" title="A principal adds its dynamic interceptor servers to the chain">
            Principal
            <input
              type="text"
              aria-label="Dry-run principal"
              placeholder="(none: static servers only)"
              value={principal}
              onChange={(e) => setPrincipal(e.target.value)}
            />
          </label>
        </div>
        <PayloadHead
          gatewayId={gateway.id}
          event={event}
          phase={phase}
          onReset={() => load(event, phase)}
          onPick={(payload) => setText(JSON.stringify(payload, null, 2))}
        />
        <JsonEditor label="Dry-run payload" value={text} onChange={setText} height="260px" />
        <PayloadCheck parsed={parsed} event={event} phase={phase} />
        <div className="row end">
          <span className="muted">No backend is called; interceptors run for real (sinks too).</span>
          <button type="button" className="primary" disabled={!parsed.ok || pending} onClick={() => void run()}>
            {pending ? 'Running…' : 'Run chain'}
          </button>
        </div>
        <ErrorBanner error={error} />
      </section>
      <section className="card pg-card" aria-label="Dry-run trace">
        {trace ? (
          <>
            <TraceView trace={trace} label="Dry-run trace" />
            {trace.modified && (
              <details className="pg-details" open>
                <summary>Payload in → out</summary>
                <JsonDiff before={trace.inputPayload} after={trace.finalPayload} label="Chain payload diff" />
              </details>
            )}
          </>
        ) : (
          <div className="muted">
            Run the chain to see each step: mutations in their effective order, validations side by side, sinks, and why anything was skipped.
          </div>
        )}
      </section>
    </div>
  );
}
