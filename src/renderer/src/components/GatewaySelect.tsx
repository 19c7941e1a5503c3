// A gateway picker over `gateways.list` (ids as values, names shown).
import type { GatewayInfo } from '../../../shared/api/models';

export function GatewaySelect(props: { gateways: readonly Pick<GatewayInfo, 'id' | 'name'>[]; value: string; onChange(id: string): void }) {
  return (
    <select value={props.value} onChange={(e) => props.onChange(e.target.value)} aria-label="Gateway">
      {props.gateways.map((g) => (
        <option key={g.id} value={g.id}>
          {g.name}
        </option>
      ))}
    </select>
  );
}
