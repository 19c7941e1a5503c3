// The interceptors a server of a gateway offers (servers.discover), shared by the Invoke and
// Simulation tabs; cached per gateway and server, refreshed when gateways change.
import { useApiQuery } from '../../../api/context';

export interface DiscoveredDescriptor {
  name: string;
  type: string;
  description?: string;
  hooks?: { events: string[]; phase: 'request' | 'response' }[];
  configSchema?: Record<string, unknown>;
  mode?: string;
  failOpen?: boolean;
  [k: string]: unknown;
}

export function useInterceptors(gatewayId: string, server: string | undefined) {
  const q = useApiQuery('servers.discover', { id: gatewayId, server: server ?? '' }, ['gateways'], { enabled: Boolean(server) });
  return q as Omit<typeof q, 'data'> & { data?: { interceptors: DiscoveredDescriptor[]; server: string } };
}
