// Failure simulation: "make the next N invocations of this interceptor time out / crash" on a running
// gateway, so a user can check fail-open against fail-closed before production. The chain engine asks
// the simulator before each invocation (its FailureSimulator hook) and marks forced failures as
// simulated in the trace, which the gateway carries into the execution record.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../../shared/api/envelope';
import type { Simulation } from '../../../shared/api/models-playground';
import type { FailureSimulator, SimulatedFailure } from '../../interceptors/chain';

export interface ArmRequest {
  server: string;
  name: string;
  kind: SimulatedFailure;
  count: number;
  event?: string;
  phase?: 'request' | 'response';
}

/** At most this many armed simulations per gateway: each is a rule the hot path checks. */
const MAX_PER_GATEWAY = 32;

export class FailureSimulations {
  private readonly byGateway = new Map<string, Simulation[]>();

  /** Called whenever the armed set changes (armed, consumed, disarmed), to refresh the screens. */
  constructor(private readonly onChange: (gateway: string) => void = () => {}) {}

  arm(gateway: string, request: ArmRequest, now = new Date()): Simulation {
    const list = this.byGateway.get(gateway) ?? [];
    if (list.length >= MAX_PER_GATEWAY) {
      throw new ApiError('conflict', `Gateway "${gateway}" already has ${MAX_PER_GATEWAY} armed simulations; disarm some first.`);
    }
    const sim: Simulation = {
      id: randomUUID(),
      gateway,
      server: request.server,
      name: request.name,
      kind: request.kind,
      remaining: request.count,
      count: request.count,
      ...(request.event ? { event: request.event } : {}),
      ...(request.phase ? { phase: request.phase } : {}),
      armedAt: now.toISOString(),
    };
    this.byGateway.set(gateway, [...list, sim]);
    this.onChange(gateway);
    return { ...sim };
  }

  /** Disarms one simulation (by id) or all of a gateway's; returns how many were disarmed. */
  disarm(gateway: string, simulationId?: string): number {
    const list = this.byGateway.get(gateway) ?? [];
    const keep = simulationId ? list.filter((s) => s.id !== simulationId) : [];
    const removed = list.length - keep.length;
    if (simulationId && removed === 0) throw new ApiError('not_found', `No armed simulation "${simulationId}" on gateway "${gateway}".`);
    this.set(gateway, keep);
    if (removed > 0) this.onChange(gateway);
    return removed;
  }

  list(gateway?: string): Simulation[] {
    const all = gateway ? (this.byGateway.get(gateway) ?? []) : [...this.byGateway.values()].flat();
    return all.map((s) => ({ ...s }));
  }

  /** The hook handed to a gateway's chain runs; consumes one invocation of a matching simulation. */
  simulatorFor(gateway: string): FailureSimulator {
    return (target) => {
      const list = this.byGateway.get(gateway);
      if (!list || list.length === 0) return undefined;
      const sim = list.find(
        (s) =>
          s.remaining > 0 &&
          s.server === target.server &&
          s.name === target.name &&
          (s.event === undefined || s.event === target.event) &&
          (s.phase === undefined || s.phase === target.phase),
      );
      if (!sim) return undefined;
      sim.remaining--;
      if (sim.remaining === 0)
        this.set(
          gateway,
          list.filter((s) => s !== sim),
        );
      this.onChange(gateway);
      return sim.kind;
    };
  }

  /** A gateway was deleted: nothing of it stays armed. */
  forget(gateway: string): void {
    if (this.byGateway.delete(gateway)) this.onChange(gateway);
  }

  private set(gateway: string, list: Simulation[]): void {
    if (list.length === 0) this.byGateway.delete(gateway);
    else this.byGateway.set(gateway, list);
  }
}
