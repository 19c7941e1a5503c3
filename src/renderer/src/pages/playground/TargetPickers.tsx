// The pickers the Playground tabs share: which server and interceptor of the gateway (Invoke,
// Simulation), and which event and phase the payload is for (Invoke, Dry-run). Each renders bare
// fields, so the tab lays them out in its own row or grid.
import type { DiscoveredDescriptor, InterceptorChoice } from './invoke/useInterceptors';
import type { Phase } from '../../../../shared/protocol/constants';

// One definition (the protocol's), re-exported for the screens that import it from here.
export type { Phase };

export function InterceptorPicker(props: {
  choice: InterceptorChoice;
  serverLabel: string;
  interceptorLabel: string;
  /** The option text of an interceptor; the Invoke tab's "name · type" unless a tab words it its own way. */
  optionText?: (i: DiscoveredDescriptor) => string;
}) {
  const { choice } = props;
  const optionText = props.optionText ?? ((i: DiscoveredDescriptor) => `${i.name} · ${i.type}`);
  return (
    <>
      <label className="field">
        Server
        <select aria-label={props.serverLabel} value={choice.server ?? ''} onChange={(e) => choice.setServer(e.target.value)}>
          {choice.servers.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label className="field">
        Interceptor
        <select aria-label={props.interceptorLabel} value={choice.interceptor?.name ?? ''} onChange={(e) => choice.setName(e.target.value)}>
          {choice.interceptors.map((i) => (
            <option key={i.name} value={i.name}>
              {optionText(i)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

export function EventPhasePicker(props: {
  events: readonly string[];
  event: string;
  phase: Phase;
  /** Called with the whole pair, so the tab can load the template for it in one step. */
  onChange(event: string, phase: Phase): void;
  eventLabel: string;
  phaseLabel: string;
}) {
  const { event, phase, onChange } = props;
  return (
    <>
      <label className="field">
        Event
        <select aria-label={props.eventLabel} value={event} onChange={(e) => onChange(e.target.value, phase)}>
          {props.events.map((e) => (
            <option key={e}>{e}</option>
          ))}
        </select>
      </label>
      <label className="field">
        Phase
        <select aria-label={props.phaseLabel} value={phase} onChange={(e) => onChange(event, e.target.value as Phase)}>
          <option value="request">request</option>
          <option value="response">response</option>
        </select>
      </label>
    </>
  );
}
