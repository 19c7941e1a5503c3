// Handlers of the Playground's procedures (failure simulation, built-in MCP client).
import { ApiError } from '../../shared/api/envelope';
import type { PlaygroundServices } from '../services/playground';
import type { GatewayManager } from '../services/gateway-manager';
import type { Handlers } from './dispatcher';

export function buildPlaygroundHandlers(d: { manager: GatewayManager; playground?: PlaygroundServices }): Handlers {
  const pg = () => d.playground ?? unavailable();
  return {
    'simulation.arm': ({ id, ...request }) => {
      const gw = d.manager.get(id); // not_found for an unknown gateway
      if (gw.status !== 'running') {
        throw new ApiError('conflict', `Gateway "${id}" is ${gw.status}: a simulation applies to a running gateway's traffic; start it first.`);
      }
      return pg().simulations.arm(id, request);
    },
    'simulation.disarm': ({ id, simulationId }) => ({ disarmed: pg().simulations.disarm(id, simulationId) }),
    'simulation.list': (input) => pg().simulations.list(input?.id),

    'client.connect': ({ target, roots, answerTimeoutMs, authorizationTimeoutMs }) =>
      pg().clients.connect(target, { roots, answerTimeoutMs, authorizationTimeoutMs }),
    'client.authorizations': () => pg().clients.waitingAuthorizations(),
    'client.cancelAuthorization': ({ authorizationId }) => pg().clients.cancelAuthorization(authorizationId),
    'client.sessions': () => pg().clients.sessions(),
    'client.disconnect': async ({ sessionId }) => {
      await pg().clients.disconnect(sessionId);
      return { done: true as const };
    },
    'client.list': ({ sessionId }) => pg().clients.list(sessionId),
    'client.callTool': ({ sessionId, name, arguments: args }) => pg().clients.callTool(sessionId, name, args),
    'client.getPrompt': ({ sessionId, name, arguments: args }) => pg().clients.getPrompt(sessionId, name, args),
    'client.readResource': ({ sessionId, uri }) => pg().clients.readResource(sessionId, uri),
    'client.ping': ({ sessionId }) => pg().clients.ping(sessionId),
    'client.complete': (input) => pg().clients.complete(input),
    'client.notifications': ({ sessionId, after }) => pg().clients.notifications(sessionId, after),
    'client.subscribe': ({ sessionId, uri }) => pg().clients.subscribe(sessionId, uri),
    'client.setLogLevel': ({ sessionId, level }) => pg().clients.setLogLevel(sessionId, level),
    'client.pending': (input) => pg().clients.pendingRequests(input?.sessionId),
    'client.answer': ({ sessionId, requestId, answer }) => {
      pg().clients.answer(sessionId, requestId, answer);
      return { done: true as const };
    },
    'client.setRoots': ({ sessionId, roots }) => pg().clients.setRoots(sessionId, roots),
  };
}

function unavailable(): never {
  throw new ApiError('unavailable', 'The Playground services are not part of this core.');
}
