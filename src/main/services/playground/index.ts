// The Playground's core services: failure simulations (handed to every gateway runtime the manager
// starts) and the built-in MCP client's sessions. One object so the core wires and closes them once.
import type { GatewayManager } from '../gateway-manager';
import type { GatewayRuntimeFactory } from '../gateway-runtime';
import { ClientSessions } from './client-sessions';
import { FailureSimulations } from './failure-simulations';

export { ClientSessions } from './client-sessions';
export { FailureSimulations } from './failure-simulations';

export class PlaygroundServices {
  readonly simulations: FailureSimulations;
  readonly clients: ClientSessions;
  private manager?: GatewayManager;

  constructor(
    version: string,
    onSimulationsChanged: (gateway: string) => void,
    onClientRequests?: (sessionId: string, pending: number) => void,
    onClientAuthorizations?: (waiting: number) => void,
  ) {
    this.simulations = new FailureSimulations(onSimulationsChanged);
    this.clients = new ClientSessions(
      () => {
        if (!this.manager) throw new Error('the Playground services were not attached to the gateway manager');
        return this.manager;
      },
      version,
      onClientRequests,
      onClientAuthorizations,
    );
  }

  /** Wraps the runtime factory so every gateway's chain runs consult its failure simulations. */
  withSimulation(factory: GatewayRuntimeFactory | undefined): GatewayRuntimeFactory | undefined {
    if (!factory) return undefined;
    return (options) => factory({ ...options, simulate: this.simulations.simulatorFor(options.id) });
  }

  attach(manager: GatewayManager): void {
    this.manager = manager;
    // A simulation rehearses failures on a running gateway; once it stops (or fails) nothing stays armed.
    manager.onEvent((event) => {
      if (event.type === 'gateway.status' && (event.status === 'stopped' || event.status === 'failed')) this.simulations.forget(event.id);
    });
  }

  close(): Promise<void> {
    return this.clients.close();
  }
}
