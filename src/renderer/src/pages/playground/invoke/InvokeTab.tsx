// Invoke: one interceptor, by hand. Pick the server, interceptor, event and phase; the payload starts
// from a template for that event and phase (or a recorded execution); set config (a form from the
// interceptor's configSchema) and context; Invoke. Each run is kept in this session's run history.
import { useEffect, useMemo, useState } from 'react';
import type { GatewayInfo } from '../../../../../shared/api/models';
import type { ProcedureInput, ProcedureOutput } from '../../../../../shared/api/procedures';
import { KNOWN_EVENTS } from '../../../../../shared/protocol/constants';
import { payloadTemplate } from '../../../../../shared/templates/payloads';
import { useApi, useApiQuery } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { JsonEditor, parseJsonText } from '../../../components/json-editor/JsonEditor';
import { SchemaForm } from '../../../components/schema-form/SchemaForm';
import { initialValue, type JsonSchema } from '../../../components/schema-form/schema';
import { ContextFields, contextFromFields, type ContextFieldValues } from './ContextFields';
import { InvokeResult } from './InvokeResult';
import { PayloadCheck } from './PayloadShapeNote';
import { RunHistory } from './RunHistory';
import { addRun, useRuns } from './run-store';
import { useInterceptorChoice, type DiscoveredDescriptor } from './useInterceptors';
import type { PayloadSeed } from '../execution-link';
import { EventPhasePicker, InterceptorPicker, type Phase } from '../TargetPickers';
import { PayloadHead } from '../PayloadHead';

export function InvokeTab({ gateway, seed }: { gateway: GatewayInfo; seed?: PayloadSeed }) {
  const api = useApi();
  const choice = useInterceptorChoice(gateway);
  const { server: effectiveServer, discovery, interceptors, interceptor: descriptor, setName } = choice;
  const [event, setEvent] = useState('tools/call');
  const [phase, setPhase] = useState<Phase>('request');
  const [payloadText, setPayloadText] = useState(() => pretty(payloadTemplate('tools/call', 'request').payload));
  const [templateTitle, setTemplateTitle] = useState(payloadTemplate('tools/call', 'request').title);
  const [config, setConfig] = useState<unknown>(undefined);
  const [sendConfig, setSendConfig] = useState(false);
  const [ctx, setCtx] = useState<ContextFieldValues>({ principalType: 'user', principalId: 'playground-user', traceId: '', sessionId: '' });
  const [timeoutMs, setTimeoutMs] = useState('');
  const [highlight, setHighlight] = useState<string>();
  const runs = useRuns(gateway.id);
  const [shown, setShown] = useState<number>();
  const [pending, setPending] = useState(false);
  const [from, setFrom] = useState<string>();
  /** The text last loaded (template, recording): "(edited)" means the payload differs from it. */
  const [loadedText, setLoadedText] = useState(payloadText);
  const edited = payloadText !== loadedText;
  const [configJsonError, setConfigJsonError] = useState<string>();
  const gatewayConfig = useApiQuery('gateways.get', { id: gateway.id }, ['gateways']).data?.config;
  // The API hands the config over as plain JSON; only `overrides[key].config` is read here.
  const overrides = gatewayConfig?.overrides as Record<string, { config?: unknown } | undefined> | undefined;
  const configuredConfig = descriptor && effectiveServer ? overrides?.[`${effectiveServer}/${descriptor.name}`]?.config : undefined;

  // A new interceptor: its first hooked event and phase, its template, its config defaults. A payload
  // the user edited or took from history stays when the new interceptor hooks its event and phase.
  useEffect(() => {
    if (!descriptor) return;
    if (!((from || edited) && hooksCover(descriptor, event, phase))) {
      const hook = descriptor.hooks?.find((h) => h.events.some((e) => !e.includes('*'))) ?? descriptor.hooks?.[0];
      const firstEvent = hook?.events.find((e) => !e.includes('*')) ?? 'tools/call';
      loadTemplate(firstEvent, hook?.phase ?? 'request');
    }
    // The config this gateway runs the interceptor with, when it sets one: that is what an invoke should
    // rehearse. Otherwise the schema's defaults, not sent until the user fills the form: a stand-in such as
    // {"allow": []} would make every invoke of tool-allowlist "would block" for a config nobody chose.
    setConfig(configuredConfig ?? initialConfig(descriptor));
    setSendConfig(configuredConfig !== undefined);
    // Only when the interceptor itself changes (or the gateway's config for it arrives).
  }, [descriptor?.name, effectiveServer, JSON.stringify(configuredConfig)]);

  // A recorded execution handed over by a link: its payload, and an interceptor that hooks its event.
  useEffect(() => {
    if (!seed) return;
    setEvent(seed.event);
    setPhase(seed.phase);
    setPayloadText(pretty(seed.payload));
    setLoadedText(pretty(seed.payload));
    setFrom(seed.executionId);
    setHighlight(undefined);
    if (descriptor && !hooksCover(descriptor, seed.event, seed.phase)) {
      const match = interceptors.find((i) => hooksCover(i, seed.event, seed.phase));
      if (match) setName(match.name);
    }
  }, [seed?.nonce]);

  const events = useMemo(() => {
    const hooked = (descriptor?.hooks ?? []).flatMap((h) => h.events).filter((e) => !e.includes('*'));
    return [...new Set([...hooked, ...KNOWN_EVENTS])];
  }, [descriptor]);

  function loadTemplate(nextEvent: string, nextPhase: Phase) {
    const t = payloadTemplate(nextEvent, nextPhase);
    setEvent(nextEvent);
    setPhase(nextPhase);
    setPayloadText(pretty(t.payload));
    setLoadedText(pretty(t.payload));
    setTemplateTitle(t.title);
    setFrom(undefined);
    setHighlight(undefined);
  }

  const parsed = parseJsonText(payloadText);
  const hookNote =
    descriptor && !hooksCover(descriptor, event, phase)
      ? `${descriptor.name} does not declare a hook for ${event} (${phase}); the host may refuse or ignore it.`
      : undefined;

  async function run(input: ProcedureInput<'servers.invoke'>) {
    setPending(true);
    const at = new Date().toISOString();
    let output: ProcedureOutput<'servers.invoke'> | undefined;
    let error: string | undefined;
    try {
      output = await api.call('servers.invoke', input);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    setPending(false);
    const next = addRun(gateway.id, { at, input, output, error });
    setShown(next.n);
    const firstPath = firstMessagePath(output?.result);
    setHighlight(firstPath);
  }

  // Config text that does not parse is not what would be sent (the form keeps its last valid value).
  const configBlocked = configJsonError !== undefined;
  const missingConfig = !sendConfig && descriptor ? requiredWithoutDefault(descriptor) : [];

  function invoke() {
    if (!parsed.ok || !descriptor || !effectiveServer || configBlocked) return;
    const context = contextFromFields(ctx);
    run({
      id: gateway.id,
      server: effectiveServer,
      name: descriptor.name,
      event,
      phase,
      payload: parsed.value,
      ...(sendConfig && config !== undefined ? { config: config as Record<string, unknown> } : {}),
      ...(timeoutMs ? { timeoutMs: Number(timeoutMs) } : {}),
      ...(Object.keys(context).length ? { context } : {}),
    });
  }

  // Back on the page after leaving it, the newest run is shown again.
  const current = runs.find((r) => r.n === shown) ?? runs[0];
  return (
    <div className="pg-grid invoke">
      <section className="card pg-card" aria-label="Invocation">
        <div className="target-grid">
          <InterceptorPicker choice={choice} serverLabel="Interceptor server" interceptorLabel="Interceptor" />
          <EventPhasePicker events={events} event={event} phase={phase} onChange={loadTemplate} eventLabel="Event" phaseLabel="Phase" />
        </div>
        <ErrorBanner error={discovery.error} />
        {descriptor?.description && <div className="muted">{descriptor.description}</div>}
        {hookNote && <div className="banner info">{hookNote}</div>}
        <PayloadHead
          gatewayId={gateway.id}
          event={event}
          phase={phase}
          source={
            <span className="muted">
              {from ? `from recorded execution ${from}` : `template: ${templateTitle}`}
              {edited ? ' (edited)' : ''}
            </span>
          }
          onReset={() => loadTemplate(event, phase)}
          onPick={(payload, executionId) => {
            setPayloadText(pretty(payload));
            setLoadedText(pretty(payload));
            setFrom(executionId);
            setHighlight(undefined);
          }}
        />
        <JsonEditor label="Payload" value={payloadText} onChange={setPayloadText} highlightPath={highlight} height="260px" />
        <PayloadCheck parsed={parsed} event={event} phase={phase} />
        {descriptor && missingConfig.length > 0 && (
          <div className="banner info" role="note" aria-label="Config required">
            {descriptor.name} requires config ({missingConfig.join(', ')}) and gateway {gateway.id} sets none: invoked without one, the host answers a
            configuration error. Fill in the Config form below to send one.
          </div>
        )}
        {descriptor && (
          <details className="pg-details" open={sendConfig}>
            <summary>
              Config{' '}
              <label className="check" onClick={(e) => e.stopPropagation()}>
                <input type="checkbox" checked={sendConfig} onChange={(e) => setSendConfig(e.target.checked)} aria-label="Send config" /> send
              </label>
              <span className="muted">
                {descriptor.configSchema ? ' form from its configSchema' : ' no configSchema: any JSON object'}
                {configuredConfig !== undefined ? `; filled in from gateway ${gateway.id}'s config` : ''}
              </span>
            </summary>
            <SchemaForm
              label={`Config of ${descriptor.name}`}
              schema={(descriptor.configSchema as JsonSchema | undefined) ?? { type: 'object', additionalProperties: true }}
              value={config ?? {}}
              onChange={(v) => {
                setConfig(v);
                setSendConfig(true);
              }}
              onJsonError={setConfigJsonError}
            />
            {configBlocked && <div className="field-error">Invoke waits for valid config JSON: {configJsonError}</div>}
          </details>
        )}
        <details className="pg-details">
          <summary>Context and timeout</summary>
          <ContextFields value={ctx} onChange={setCtx} />
          <label className="field narrow">
            timeoutMs
            <input type="number" min={1} aria-label="Timeout (ms)" placeholder="none" value={timeoutMs} onChange={(e) => setTimeoutMs(e.target.value)} />
          </label>
        </details>
        <div className="row end">
          <button type="button" className="primary" disabled={!parsed.ok || !descriptor || pending || configBlocked} onClick={invoke}>
            {pending ? 'Invoking…' : 'Invoke'}
          </button>
        </div>
      </section>
      <section className="card pg-card" aria-label="Result">
        {current ? (
          <InvokeResult run={current} onHighlight={setHighlight} highlighted={highlight} />
        ) : (
          <div className="muted">Invoke to see the verdict, mutation diff or sink acknowledgement, the duration and the raw JSON-RPC.</div>
        )}
      </section>
      <section className="card pg-card wide" aria-label="Run history">
        <RunHistory runs={runs} shown={current?.n} onShow={setShown} onRerun={(r) => run(r.input)} />
      </section>
    </div>
  );
}

function pretty(v: unknown): string {
  return JSON.stringify(v, null, 2);
}

/** Every default the configSchema declares, plus an empty value for each required key. */
function initialConfig(d: DiscoveredDescriptor): unknown {
  const schema = d.configSchema as JsonSchema | undefined;
  if (!schema?.properties) return {};
  const out = (initialValue(schema, schema) ?? {}) as Record<string, unknown>;
  for (const [k, p] of Object.entries(schema.properties)) if (p.default !== undefined && out[k] === undefined) out[k] = p.default;
  return out;
}

/** Required config keys the schema gives no default: a host refuses an invoke without them. */
function requiredWithoutDefault(d: DiscoveredDescriptor): string[] {
  const schema = d.configSchema as JsonSchema | undefined;
  return (schema?.required ?? []).filter((k) => schema?.properties?.[k]?.default === undefined);
}

function hooksCover(d: DiscoveredDescriptor, event: string, phase: Phase): boolean {
  return (d.hooks ?? []).some(
    (h) => h.phase === phase && h.events.some((e) => e === '*' || e === event || (e.endsWith('/*') && event.startsWith(e.slice(0, -1)))),
  );
}

function firstMessagePath(result: unknown): string | undefined {
  const messages = (result as { messages?: { path?: string }[] } | undefined)?.messages;
  return messages?.find((m) => m.path)?.path;
}
