// Turns a gateway config into the summaries the Gateways screen shows (backend, listen address, servers).
import type { BackendEntry, GatewayConfig, InterceptorServerEntry } from '../../shared/config';
import type { InterceptorServerState } from '../../shared/api/models';
import { BUNDLED_TARGET } from '../interceptors/bundled';

export function endpointTarget(entry: BackendEntry | InterceptorServerEntry): string {
  if (entry.transport === 'stdio') return [entry.command, ...entry.arguments].map(quoteArg).join(' ');
  if (entry.transport === 'bundled') return BUNDLED_TARGET;
  return entry.endpoint;
}

export function backendSummary(config: GatewayConfig | undefined, raw: Record<string, unknown>) {
  if (config) return { name: config.backend.name, transport: config.backend.transport, target: endpointTarget(config.backend) };
  const b = (raw.backend ?? {}) as Record<string, unknown>;
  return { name: String(b.name ?? '(invalid config)'), transport: String(b.transport ?? '?'), target: String(b.command ?? b.endpoint ?? '') };
}

/** Every interceptor server in the config (static ones, then dynamic ones once each). */
export function configuredServers(config: GatewayConfig): InterceptorServerEntry[] {
  const out = [...config.staticInterceptors];
  const seen = new Set(out.map((s) => s.name));
  for (const entries of Object.values(config.dynamicInterceptors)) {
    for (const e of entries) {
      if (seen.has(e.name)) continue;
      seen.add(e.name);
      out.push(e);
    }
  }
  return out;
}

export function serverStatesFromConfig(config: GatewayConfig | undefined, running: boolean): InterceptorServerState[] {
  if (!config) return [];
  return configuredServers(config).map((s) => ({
    name: s.name,
    transport: s.transport,
    target: endpointTarget(s),
    failOpen: (s as { failOpen?: boolean }).failOpen === true,
    status: running ? 'pending' : 'stopped',
  }));
}

export function configuredUrl(config: GatewayConfig | undefined): string | undefined {
  if (!config || config.listen.transport !== 'http' || config.listen.port === 0) return undefined;
  const host = config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  return `http://${host}:${config.listen.port}${config.listen.path}`;
}

function quoteArg(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

/** A gateway id from a name: lowercase, dashes, at most 48 characters. */
export function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || 'gateway';
}
