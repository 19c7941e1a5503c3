// Failure simulation: force the next N invocations of an interceptor in the running gateway to time
// out or crash, to see whether its failOpen setting lets traffic through or blocks it. Executions that
// hit a simulation are recorded as simulated (Traffic shows the badge).
import { useState } from 'react';
import type { GatewayInfo } from '../../../../../shared/api/models';
import { useApiMutation, useApiQuery } from '../../../api/context';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { useInterceptorChoice } from '../invoke/useInterceptors';
import { InterceptorPicker } from '../TargetPickers';
import { effectiveSettings, labelled, type DeclaredSettings, type OverrideSettings } from '../../../../../shared/config/effective-settings';
import { timeOfDay } from '../../../time-format';

function overridesIn(config: Record<string, unknown> | undefined): Record<string, OverrideSettings> {
  const o = config?.overrides;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, OverrideSettings>) : {};
}

/** "pii-validator is fail-open (override), mode active (declared)": the settings a failure meets. */
function EffectivePolicyLine({ name, declared, override }: { name: string; declared: DeclaredSettings; override: OverrideSettings | undefined }) {
  const e = effectiveSettings(declared, override);
  return (
    <div className="muted" data-testid="simulation-effective-policy">
      {name} is {labelled(e.failOpen, e.failOpen.value ? 'fail-open' : 'fail-closed')}, mode {labelled(e.mode)}
      {e.mode.value === 'audit'
        ? ': audit never blocks, so a failure lets the call through'
        : e.failOpen.value
          ? ': a failure lets the call through'
          : ': a failure blocks the call'}
      .
    </div>
  );
}

export function SimulationTab({ gateway }: { gateway: GatewayInfo }) {
  const sims = useApiQuery('simulation.list', { id: gateway.id }, ['gateways']);
  const arm = useApiMutation('simulation.arm', ['gateways']);
  const disarm = useApiMutation('simulation.disarm', ['gateways']);
  const choice = useInterceptorChoice(gateway);
  const { server: effectiveServer, discovery, interceptor: selected } = choice;
  const effectiveName = selected?.name;
  const [kind, setKind] = useState<'crash' | 'timeout'>('crash');
  const [count, setCount] = useState(1);
  const running = gateway.status === 'running';
  // The gateway's overrides: what the simulation meets is the effective failOpen/mode, not the declared one.
  const gatewayConfig = useApiQuery('gateways.get', { id: gateway.id }, ['gateways']);

  return (
    <div className="pg-grid simulation">
      <section className="card pg-card">
        <h2>Arm a failure</h2>
        <p className="muted">
          The next invocations of the interceptor in <b>{gateway.name}</b> fail without reaching its server. A fail-closed interceptor then blocks the call; a
          fail-open or audit one lets it through.
        </p>
        {!running && <div className="banner info">Start the gateway first: simulations apply to its live traffic.</div>}
        <div className="row">
          <InterceptorPicker
            choice={choice}
            serverLabel="Simulation server"
            interceptorLabel="Simulation interceptor"
            optionText={(i) => `${i.name} (${i.type})`}
          />
          <label className="field">
            Failure
            <select aria-label="Failure kind" value={kind} onChange={(e) => setKind(e.target.value as 'crash' | 'timeout')}>
              <option value="crash">crash</option>
              <option value="timeout">time out</option>
            </select>
          </label>
          <label className="field">
            Next N invocations
            <input
              aria-label="Invocation count"
              type="number"
              min={1}
              max={1000}
              value={count}
              onChange={(e) => setCount(Math.max(1, Number(e.target.value) || 1))}
            />
          </label>
          <button
            type="button"
            className="primary"
            disabled={!running || !effectiveServer || !effectiveName || arm.isPending}
            onClick={() => arm.mutate({ id: gateway.id, server: effectiveServer!, name: effectiveName!, kind, count })}
          >
            Arm
          </button>
        </div>
        {selected && effectiveServer && (
          <EffectivePolicyLine
            name={selected.name}
            declared={selected as DeclaredSettings}
            override={overridesIn(gatewayConfig.data?.config)[`${effectiveServer}/${selected.name}`]}
          />
        )}
        <ErrorBanner error={arm.error ?? discovery.error} />
      </section>
      <section className="card pg-card">
        <h2>Armed on {gateway.name}</h2>
        {(sims.data ?? []).length === 0 ? (
          <div className="muted">Nothing armed.</div>
        ) : (
          <table className="pg-table" aria-label="Armed simulations">
            <thead>
              <tr>
                <th>Interceptor</th>
                <th>Failure</th>
                <th>Remaining</th>
                <th>Armed</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(sims.data ?? []).map((s) => (
                <tr key={s.id}>
                  <td>
                    {s.server}/{s.name}
                  </td>
                  <td>{s.kind}</td>
                  <td>
                    {s.remaining} of {s.count}
                  </td>
                  <td>{timeOfDay(s.armedAt)}</td>
                  <td>
                    <button type="button" className="small" onClick={() => disarm.mutate({ id: gateway.id, simulationId: s.id })}>
                      Disarm
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
